package io.interpreter4j.core.intercept;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LanguagesTest {

  @ParameterizedTest
  @CsvSource({
      "python, python", "py, python", "python3, python",
      "bash, bash", "sh, bash", "shell, bash", "zsh, bash",
      "javascript, javascript", "js, javascript", "node, javascript", "nodejs, javascript",
      "powershell, powershell", "pwsh, powershell", "ps1, powershell",
      "r, r", "R, r",
      "ruby, ruby", "rb, ruby",
      "java, java", "jshell, java",
      "applescript, applescript", "osascript, applescript",
      "html, html", "HTML, html", "htm, html"})
  void aliasesCollapseToOneName(String tag, String language) {
    assertEquals(language, Languages.normalize(tag, "python"));
  }

  @Test
  void unknownTagsKeepTheirNameAndAnEmptyTagTakesTheDefault() {
    assertEquals("lua", Languages.normalize("lua", "python"));
    assertEquals("bash", Languages.normalize("", "bash"));
  }

  @Test
  void theFirstWordOfTheInfoStringIsTheTag() {
    assertEquals("python", Languages.tagOf(" Python title=\"x.py\""));
    assertEquals("js", Languages.tagOf("js{.line-numbers}"));
    assertEquals("", Languages.tagOf("   "));
  }

  @Test
  void dataAndOutputTagsAreNotRunnable() {
    assertFalse(Languages.isRunnable("json"));
    assertFalse(Languages.isRunnable("Output"));
    assertTrue(Languages.isRunnable("html"));
    assertTrue(Languages.isRunnable("r"));
  }
}
