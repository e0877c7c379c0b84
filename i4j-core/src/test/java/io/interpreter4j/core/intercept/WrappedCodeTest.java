package io.interpreter4j.core.intercept;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class WrappedCodeTest {

  @Test
  void jsonShapesOfToolCalls() {
    assertEquals(Optional.of(new WrappedCode("python", "print(1)")),
        WrappedCode.fromJson("{\"language\": \"python\", \"code\": \"print(1)\"}", ""));
    assertEquals(Optional.of(new WrappedCode("bash", "pwd")), WrappedCode.fromJson(
        "{\"type\": \"function\", \"function\": {\"name\": \"execute\", \"arguments\": "
            + "\"{\\\"lang\\\": \\\"bash\\\", \\\"code\\\": \\\"pwd\\\"}\"}}", ""));
    // a tool named after a language gives the language
    assertEquals(Optional.of(new WrappedCode("python", "x")),
        WrappedCode.fromJson("{\"name\": \"python\", \"input\": {\"code\": \"x\"}}", ""));
    assertEquals(Optional.of(new WrappedCode("sh", "ls")), WrappedCode.fromJson("{\"code\": \"ls\"}", "sh"));
    assertEquals(Optional.of(new WrappedCode("", "ls")), WrappedCode.fromJson("{\"code\": \"ls\"}", "execute"));
  }

  @Test
  void notCodeIsEmpty() {
    assertEquals(Optional.empty(), WrappedCode.fromJson("{\"code\": 1}", ""));
    assertEquals(Optional.empty(), WrappedCode.fromJson("{\"code\": \"x\"", ""));
    assertEquals(Optional.empty(), WrappedCode.fromJson("[{\"code\": \"x\"}]", ""));
    String deep = "{\"args\": {\"args\": {\"args\": {\"args\": {\"code\": \"x\"}}}}}";
    assertEquals(Optional.empty(), WrappedCode.fromJson(deep, ""));
  }

  @Test
  void writtenOutCalls() {
    assertEquals(Optional.of(new WrappedCode("bash", "ls")), WrappedCode.fromCall("functions.bash(\"ls\")"));
    assertEquals(Optional.of(new WrappedCode("python", "print(1)")),
        WrappedCode.fromCall("execute(\"python\", \"print(1)\")"));
    assertEquals(Optional.of(new WrappedCode("", "echo")), WrappedCode.fromCall("execute(script='echo')"));
    assertEquals(Optional.of(new WrappedCode("python", "x")),
        WrappedCode.fromCall("functions.execute({\"language\": \"python\", \"code\": \"x\"})"));
    assertEquals(Optional.empty(), WrappedCode.fromCall("execute(language=\"python\")"));
    assertEquals(Optional.empty(), WrappedCode.fromCall("execute(1)"));
    assertEquals(Optional.empty(), WrappedCode.fromCall("execute("));
  }

  @Test
  void fenceOutlastsTheCodesBackticksAndTagIsTheLanguagesFirstWord() {
    assertEquals("```python\nprint(1)\n```\n", new WrappedCode("python", "print(1)").toFence());
    assertEquals("````py\ns = '```'\n````\n", new WrappedCode(" py ", "s = '```'\n").toFence());
    assertEquals("```Python\nx\n```\n", new WrappedCode("Python 3", "x").toFence());
    assertEquals("```c++\n```\n", new WrappedCode("(c++)", "").toFence());
  }
}
