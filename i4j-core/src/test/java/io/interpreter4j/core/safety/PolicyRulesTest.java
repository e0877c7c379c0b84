package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.safety.PolicyDecision.Verdict;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Order of deny/ask/allow, first match, compound and nested commands, glob syntax and invalid patterns. */
class PolicyRulesTest {

  private static PolicyRules rules(List<String> deny, List<String> ask, List<String> allow) {
    return PolicyRules.of(deny, ask, allow);
  }

  @Test
  void denyIsCheckedBeforeAskAndAllow() {
    PolicyRules r = rules(List.of("bash:rm -rf /*"), List.of("bash:rm *"), List.of("bash:*"));
    PolicyDecision d = r.evaluate("bash", "rm -rf /tmp/x");
    assertEquals(new PolicyDecision(Verdict.DENY, "bash:rm -rf /*", "rm -rf /tmp/x"), d);
  }

  @Test
  void askIsCheckedBeforeAllow() {
    PolicyRules r = rules(List.of(), List.of("bash:git push*"), List.of("bash:git *"));
    assertEquals(new PolicyDecision(Verdict.ASK, "bash:git push*", "git push origin main"),
        r.evaluate("bash", "git push origin main"));
    assertEquals(Verdict.ALLOW, r.evaluate("bash", "git status").verdict());
  }

  @Test
  void firstMatchingRuleOfAListWins() {
    PolicyRules r = rules(List.of("bash:git push --force*", "bash:git push*"), List.of(), List.of("bash:git *", "bash:git status"));
    assertEquals("bash:git push --force*", r.evaluate("bash", "git push --force").matchedRule());
    assertEquals("bash:git *", r.evaluate("bash", "git status").matchedRule());
  }

  @Test
  void everyCommandOfACompoundCommandMustBeAllowed() {
    PolicyRules r = rules(List.of(), List.of(), List.of("bash:git status", "bash:ls*", "bash:echo *"));
    assertEquals(new PolicyDecision(Verdict.NONE, null, "cat"), r.evaluate("bash", "git status && ls -la; echo done | cat"),
        "cat is not allowed");
    PolicyDecision all = r.evaluate("bash", "git status && ls -la\necho done || ls");
    assertEquals(Verdict.ALLOW, all.verdict());
    assertEquals("bash:git status, bash:ls*, bash:echo *", all.matchedRule());
    PolicyDecision one = r.evaluate("bash", "git status && rm notes.txt");
    assertEquals(new PolicyDecision(Verdict.NONE, null, "rm notes.txt"), one);
  }

  @Test
  void anyCommandOfACompoundCommandCanBeDenied() {
    PolicyRules r = rules(List.of("bash:rm -rf*"), List.of(), List.of("bash:*"));
    for (String code : List.of("echo hi; rm -rf build | cat", "ls && rm -rf build", "false || rm -rf build",
        "ls | rm -rf build", "sleep 1 & rm -rf build", "ls\nrm -rf build")) {
      PolicyDecision d = r.evaluate("bash", code);
      assertEquals(Verdict.DENY, d.verdict(), code);
      assertEquals("rm -rf build", d.command(), code);
    }
  }

  @Test
  void nestedCommandsAreCheckedToo() {
    PolicyRules deny = rules(List.of("bash:rm -rf*"), List.of(), List.of());
    assertEquals(Verdict.DENY, deny.evaluate("bash", "bash -c 'rm -rf ~'").verdict());
    assertEquals(Verdict.DENY, deny.evaluate("bash", "echo $(rm -rf ~)").verdict());
    assertEquals(Verdict.DENY, deny.evaluate("bash", "eval \"rm -rf ~\"").verdict());
    assertEquals(Verdict.DENY, deny.evaluate("bash", "sudo rm -rf /").verdict(), "matched without sudo");
    assertEquals(Verdict.DENY, deny.evaluate("bash", "env X=1 nohup rm -rf /").verdict());

    PolicyRules allow = rules(List.of(), List.of(), List.of("bash:git push*", "bash:ls*"));
    PolicyDecision hidden = allow.evaluate("bash", "git push $(rm -rf ~)");
    assertEquals(new PolicyDecision(Verdict.NONE, null, "rm -rf ~"), hidden);
    assertEquals(Verdict.NONE, allow.evaluate("bash", "sudo ls").verdict(), "allow rules see sudo");
  }

  @Test
  void quotedSeparatorsAndCommentsDoNotSplit() {
    PolicyRules r = rules(List.of("bash:rm *"), List.of(), List.of("bash:echo *", "bash:grep *"));
    assertEquals(Verdict.ALLOW, r.evaluate("bash", "echo 'a; rm -rf x' && grep \"rm x|y\" f.txt # ; rm y").verdict());
  }

  @Test
  void structuralKeywordsAreNotPartOfTheCommand() {
    PolicyRules r = rules(List.of(), List.of(), List.of("bash:[ *", "bash:rm -rf ./build*"));
    assertEquals(Verdict.ALLOW, r.evaluate("bash", "if [ -d build ]; then rm -rf ./build; fi").verdict());
  }

  @Test
  void whitespaceRunsCountAsOneSpace() {
    PolicyRules r = rules(List.of(), List.of(), List.of("bash:git push*"));
    assertEquals(Verdict.ALLOW, r.evaluate("bash", "git    push   origin\tmain").verdict());
  }

  @Test
  void pythonBlocksAreOneCommandPlusTheirShellOuts() {
    PolicyRules r = rules(List.of("bash:rm -rf*"), List.of(), List.of("python:*"));
    assertEquals(Verdict.ALLOW, r.evaluate("python", "print('rm -rf /')").verdict());
    PolicyDecision d = r.evaluate("python", "import os\nos.system('rm -rf build')");
    assertEquals(new PolicyDecision(Verdict.DENY, "bash:rm -rf*", "rm -rf build"), d);
    assertEquals(Verdict.NONE, r.evaluate("python", "import os\nos.system('ls')").verdict(),
        "the shell-out needs a bash allow rule of its own");
    PolicyRules pyDeny = rules(List.of("python:*shutil.rmtree*"), List.of(), List.of());
    assertEquals(Verdict.DENY, pyDeny.evaluate("python", "import shutil\nshutil.rmtree('x')").verdict());
  }

  @Test
  void languagesAreNormalisedAndStarMatchesAny() {
    PolicyRules r = rules(List.of(), List.of(), List.of("sh:ls*", "*:print(*"));
    assertEquals(Verdict.ALLOW, r.evaluate("zsh", "ls -la").verdict());
    assertEquals(Verdict.ALLOW, r.evaluate("Bash", "ls").verdict());
    assertEquals(Verdict.ALLOW, r.evaluate("py", "print(1)").verdict());
    assertEquals(Verdict.ALLOW, r.evaluate("javascript", "print(1)").verdict());
    assertEquals(Verdict.NONE, r.evaluate("python", "ls").verdict());
  }

  @Test
  void globSyntax() {
    PolicyRules r = rules(List.of(), List.of(), List.of("bash:cat ?.txt", "bash:echo \\*", "bash:cp * /tmp/*"));
    assertEquals(Verdict.ALLOW, r.evaluate("bash", "cat a.txt").verdict());
    assertEquals(Verdict.NONE, r.evaluate("bash", "cat ab.txt").verdict());
    assertEquals(Verdict.NONE, r.evaluate("bash", "echo '*'").verdict(), "the command text keeps its quotes");
    assertEquals(Verdict.ALLOW, r.evaluate("bash", "echo *").verdict());
    assertEquals(Verdict.ALLOW, r.evaluate("bash", "cp a b/c d /tmp/x/y").verdict(), "* spans spaces and slashes");
  }

  @Test
  void globMatchingIsNotExponential() {
    int[] glob = new int[41];
    Arrays.fill(glob, -1);
    for (int i = 1; i < glob.length; i += 2) {
      glob[i] = 'a';
    }
    // "*a*a*a...*a*" against a long run of a's followed by no match: polynomial, returns promptly
    assertTrue(PolicyRules.globMatches(glob, "a".repeat(5000)));
    int[] miss = Arrays.copyOf(glob, glob.length + 1);
    miss[miss.length - 1] = 'b';
    assertEquals(false, PolicyRules.globMatches(miss, "a".repeat(2000)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"git push*", ":git push*", "bash:", "bash:   ", "", "ba sh:ls", "bash"})
  void invalidPatternsNameThePatternAndTheExpectedForm(String pattern) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PolicyRules.of(List.of(), List.of("python:*", pattern), List.of()));
    assertTrue(e.getMessage().contains("\"" + pattern + "\""), e.getMessage());
    assertTrue(e.getMessage().contains("language:glob"), e.getMessage());
  }

  @Test
  void nullPatternIsInvalid() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PolicyRules.of(Arrays.asList((String) null), null, null));
    assertTrue(e.getMessage().contains("language:glob"));
  }

  @Test
  void noRulesOrNoCodeGiveNone() {
    assertEquals(PolicyDecision.none(), PolicyRules.none().evaluate("bash", "rm -rf /"));
    PolicyRules r = rules(List.of("bash:*"), List.of(), List.of());
    assertEquals(PolicyDecision.none(), r.evaluate("bash", "   "));
    assertEquals(PolicyDecision.none(), r.evaluate("bash", "# only a comment"));
  }

  @Test
  void readsTheConfigSection() {
    var config = ConfigFactory.parseString("""
        interpreter4j.approval.rules {
          deny = ["bash:rm -rf /*"]
          allow = ["python:*", "bash:git status"]
        }
        """);
    PolicyRules r = PolicyRules.fromConfig(config);
    assertEquals(Verdict.DENY, r.evaluate("bash", "rm -rf /x").verdict());
    assertEquals(Verdict.ALLOW, r.evaluate("python", "print(1)").verdict());
    assertEquals(Verdict.NONE, r.evaluate("bash", "git push").verdict());
    assertTrue(PolicyRules.fromConfig(ConfigFactory.empty()).isEmpty());
    assertThrows(IllegalArgumentException.class, () -> PolicyRules.fromConfig(
        ConfigFactory.parseString("interpreter4j.approval.rules.ask = [\"git push\"]")));
  }
}
