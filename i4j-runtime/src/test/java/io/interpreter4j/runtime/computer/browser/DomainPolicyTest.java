package io.interpreter4j.runtime.computer.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DomainPolicyTest {

  @Test
  void theDefaultAllowsEveryHttpAddress() {
    assertEquals(Optional.empty(), DomainPolicy.OPEN.refusal("https://example.com/a?b=c"));
    assertEquals(Optional.empty(), DomainPolicy.OPEN.refusal("http://127.0.0.1:8080/"));
    assertEquals(Optional.empty(), DomainPolicy.OPEN.refusal("about:blank"));
  }

  @Test
  void onlyHttpAndHttpsCanBeVisited() {
    assertEquals(Optional.of("navigation to file:///etc/passwd refused: only http and https addresses can be visited"),
        DomainPolicy.OPEN.refusal("file:///etc/passwd"));
    assertEquals(Optional.of("navigation to javascript:alert(1) refused: only http and https addresses can be "
        + "visited"), DomainPolicy.OPEN.refusal("javascript:alert(1)"));
    assertEquals(Optional.of("navigation to http://exa mple.com refused: it is not a valid address"),
        DomainPolicy.OPEN.refusal("http://exa mple.com"));
  }

  @Test
  void aStarCoversSubdomainsButNotTheDomainItself() {
    DomainPolicy policy = new DomainPolicy(List.of("*"), List.of("*.example.com"));
    assertEquals(Optional.of("navigation to https://a.b.example.com/x refused: a.b.example.com matches "
        + "blocked-domains entry *.example.com"), policy.refusal("https://a.b.example.com/x"));
    assertEquals(Optional.empty(), policy.refusal("https://example.com/"));
    assertEquals(Optional.empty(), policy.refusal("https://notexample.com/"), "the dot is part of the pattern");
  }

  @Test
  void anAllowListRefusesEveryOtherHostAndBlockedWins() {
    DomainPolicy policy = new DomainPolicy(List.of("docs.example.com", "*.wikipedia.org"),
        List.of("secret.wikipedia.org"));
    assertEquals(Optional.empty(), policy.refusal("https://docs.example.com/guide"));
    assertEquals(Optional.empty(), policy.refusal("https://en.wikipedia.org/wiki/Ada_Lovelace"));
    assertEquals(Optional.of("navigation to https://evil.org/ refused: evil.org is not in allowed-domains "
        + "[docs.example.com, *.wikipedia.org]"), policy.refusal("https://evil.org/"));
    assertEquals(Optional.of("navigation to https://secret.wikipedia.org/ refused: secret.wikipedia.org matches "
        + "blocked-domains entry secret.wikipedia.org"), policy.refusal("https://secret.wikipedia.org/"));
  }

  @Test
  void hostsCompareWithoutCaseTrailingDotOrPort() {
    DomainPolicy policy = new DomainPolicy(List.of("*"), List.of("Example.COM"));
    assertEquals(true, policy.refusal("https://EXAMPLE.com:8443/").isPresent());
    assertEquals(true, policy.refusal("https://example.com./").isPresent());
  }

  @Test
  void subresourcesAreCheckedAgainstBlockedDomainsOnly() {
    DomainPolicy policy = new DomainPolicy(List.of("docs.example.com"), List.of("tracker.test"));
    assertEquals(Optional.empty(), policy.subresourceRefusal("https://cdn.other.net/app.js"));
    assertEquals(Optional.of("request to https://tracker.test/p.gif refused: tracker.test matches blocked-domains "
        + "entry tracker.test"), policy.subresourceRefusal("https://tracker.test/p.gif"));
    assertEquals(Optional.empty(), policy.subresourceRefusal("data:image/png;base64,AAAA"));
  }

  @Test
  void anEntryThatIsNoHostPatternIsAClearError() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new DomainPolicy(List.of("https://example.com/"), List.of()));
    assertEquals("interpreter4j.browser.allowed-domains: 'https://example.com/' is not a host pattern; write a host "
        + "name, * standing for any characters: \"example.com\", \"*.example.com\", \"*\"", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new DomainPolicy(List.of("*"), List.of("")));
  }
}
