package io.interpreter4j.runtime.computer.browser;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The browser's reading of a page through page.js (a resource next to this class): the snapshot that stamps refs on
 * elements ({@code data-i4j-ref="eN"}), and what an element behind a ref, or the focused one, is. Blocking Playwright
 * calls: on the browser's thread only.
 */
final class PageScript {

  /** A snapshot's text, the next free ref number, and whether the page had more nodes than a snapshot visits. */
  record Snapshot(String text, int nextRef, boolean truncated) {}

  /** The most nodes a snapshot visits. */
  static final int MAX_NODES = 50_000;

  private static final String SCRIPT = resource("page.js");
  private static final String REF_ATTRIBUTE = "data-i4j-ref";

  private PageScript() {}

  /** The page's accessibility tree; elements without a ref get one numbered from {@code nextRef}. */
  @SuppressWarnings("unchecked")
  static Snapshot snapshot(Page page, int nextRef) {
    Map<String, Object> result = (Map<String, Object>) page.locator(":root").evaluate(SCRIPT,
        Map.of("op", "snapshot", "nextRef", nextRef, "maxNodes", MAX_NODES));
    return new Snapshot(String.valueOf(result.get("text")), ((Number) result.get("nextRef")).intValue(),
        Boolean.TRUE.equals(result.get("truncated")));
  }

  /** The element stamped with {@code ref}; empty when the page has none (any more). */
  @SuppressWarnings("unchecked")
  static Optional<PageElement> element(Page page, String ref) {
    Locator element = locate(page, ref);
    if (element.count() == 0) {
      return Optional.empty();
    }
    Object described = element.first().evaluate(SCRIPT, Map.of("op", "describe"));
    return Optional.of(PageElement.of((Map<String, Object>) described));
  }

  /** The element that has the keyboard's focus, inside open shadow roots too; empty when it is the page itself. */
  @SuppressWarnings("unchecked")
  static Optional<PageElement> focused(Page page) {
    Object described = page.locator(":root").evaluate(SCRIPT, Map.of("op", "focused"));
    return described == null ? Optional.empty() : Optional.of(PageElement.of((Map<String, Object>) described));
  }

  /** The element stamped with {@code ref}, to act on. */
  static Locator locate(Page page, String ref) {
    return page.locator("[" + REF_ATTRIBUTE + "=\"" + ref + "\"]");
  }

  static String noSuchRef(String ref) {
    return "no such ref " + ref + ": the page has changed or it came from an older page; take a new snapshot()";
  }

  private static String resource(String name) {
    try (InputStream in = PageScript.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name + " next to PageScript");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
