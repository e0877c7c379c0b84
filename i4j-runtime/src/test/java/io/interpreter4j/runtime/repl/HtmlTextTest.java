package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HtmlTextTest {

  @Test
  void keepsTheVisibleTextOneBlockPerLine() {
    String html = """
        <!doctype html><html><head><title>Q3 &amp; Q4</title><style>p { color: red }</style>
        <script>var hidden = "<p>not text</p>";</script></head>
        <body><h1>Sales</h1><p>Up <b>12%</b> this&nbsp;year.</p><!-- a comment -->
        <ul><li>north</li><li>south</li></ul><table><tr><td>a</td><td>1</td></tr></table>
        <p>caf&#233; &#x2713; &lt;tag&gt; &unknown;</p></body></html>""";
    assertEquals("""
        Title: Q3 & Q4

        Sales
        Up 12% this year.
        - north
        - south
        a 1
        caf\u00e9 \u2713 <tag> &unknown;
        """, HtmlText.of(html));
  }

  @Test
  void plainTextAndEmptyPages() {
    assertEquals("just text\n", HtmlText.of("just text"));
    assertEquals("\n", HtmlText.of("<html><body></body></html>"));
  }
}
