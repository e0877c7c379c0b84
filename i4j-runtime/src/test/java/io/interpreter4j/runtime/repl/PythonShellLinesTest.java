package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.runtime.sandbox.Subprocess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PythonShellLinesTest {

  static final String PIP = "__import__(\"subprocess\").run(__import__(\"shlex\").quote(__import__(\"sys\").executable)"
      + " + \" -m pip ";

  static String pip(String args) {
    return PIP + args + "\", shell=True).check_returncode()";
  }

  static String sh(String command) {
    return "__import__(\"subprocess\").run(\"" + command + "\", shell=True).check_returncode()";
  }

  @TempDir
  Path dir;

  @Test
  void pipLinesBecomePipOfTheRunningInterpreter() {
    assertEquals(pip("install requests"), PythonShellLines.translate("!pip install requests"));
    assertEquals(pip("install -q numpy==1.26"), PythonShellLines.translate("%pip install -q numpy==1.26"));
    assertEquals(pip("install x"), PythonShellLines.translate("pip install x"));
    assertEquals(pip("install x"), PythonShellLines.translate("pip3 install x  "));
    assertEquals(pip("install x"), PythonShellLines.translate("python -m pip install x"));
    assertEquals(pip("install x"), PythonShellLines.translate("!python3 -m pip install x"));
    assertEquals(pip("list"), PythonShellLines.translate("!pip3 list"));
    assertEquals(PIP.substring(0, PIP.length() - 1) + "\", shell=True).check_returncode()",
        PythonShellLines.translate("%pip"));
  }

  @Test
  void otherBangLinesRunInTheShellKeepingIndentationAndLineCount() {
    String code = "import os\nfor d in ['a', 'b']:\n    !mkdir -p \"$HOME/x\" && ls\nprint('done')\n";
    String translated = PythonShellLines.translate(code);
    assertEquals("import os\nfor d in ['a', 'b']:\n    " + sh("mkdir -p \\\"$HOME/x\\\" && ls")
        + "\nprint('done')\n", translated);
    assertEquals(code.split("\n", -1).length, translated.split("\n", -1).length);
    assertEquals("/usr/bin/pip install x", PythonShellLines.translate("!/usr/bin/pip install x")
        .replaceAll(".*run\\(\"(.*)\", shell.*", "$1"), "a pip named by its path is left to the shell");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "x = 1\nprint(x != 2)",
      "ok = (a\n!= b)",
      "s = '''\n!not a command\n%pip install x\n'''",
      "s = \"\"\"\npip install x\n\"\"\"",
      "y = 1 + \\\n  2\n",
      "pip = 3\npip -V\npip if pip else 0\npip in [1]",
      "x = [\n  pip install\n]",
      "%timeit f()",
      "# !rm -rf /\nprint('#')",
  })
  void validPythonAndTextInStringsIsLeftAlone(String code) {
    assertEquals(code, PythonShellLines.translate(code));
  }

  @Test
  void aLineAfterAStringThatEndsIsTranslatedAgain() {
    String code = "s = \"\"\"\n!inside\n\"\"\"\n!echo after";
    assertEquals("s = \"\"\"\n!inside\n\"\"\"\n" + sh("echo after"), PythonShellLines.translate(code));
    assertEquals("x = (1,\n2)\n" + sh("echo ok"), PythonShellLines.translate("x = (1,\n2)\n!echo ok"));
  }

  @Test
  void installsSpotsPipInstallInAnyForm() {
    assertTrue(PythonShellLines.installs("!pip install x"));
    assertTrue(PythonShellLines.installs("%pip install x"));
    assertTrue(PythonShellLines.installs("pip3 install x"));
    assertTrue(PythonShellLines.installs("import subprocess, sys\n"
        + "subprocess.check_call([sys.executable, \"-m\", \"pip\", \"install\", \"x\"])"));
    assertTrue(PythonShellLines.installs("os.system('pip install x')"));
    assertFalse(PythonShellLines.installs("import pip"));
    assertFalse(PythonShellLines.installs("!pip list"));
    assertFalse(PythonShellLines.installs("print('pipeline installed')"));
  }

  @Test
  void stringsAreEscapedForPython() {
    assertEquals("\"a\\\\b\\\"c\\n\\t\\x01\"", PythonShellLines.pyString("a\\b\"c\n\t\u0001"));
  }

  @Test
  void everyTranslationIsValidPython() throws Exception {
    String code = "import os\n!echo \"quoted 'both'\" \\\\ back\n%pip --version\nif True:\n    pip list\n"
        + "    !true\nx = 1\n";
    Path file = dir.resolve("t.py");
    Files.writeString(file, PythonShellLines.translate(code));
    Subprocess.Result compiled = Subprocess.run(List.of(PythonLocator.resolve(), "-c",
        "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')", file.toString()), dir, Map.of(),
        Duration.ofSeconds(30));
    assertEquals(0, compiled.exitCode(), compiled.output());
  }
}
