package io.interpreter4j.runtime.computer.browser;

import java.util.Map;

/**
 * What page.js's {@code describe} tells about one element before an action on it: its role and accessible name, and
 * what the action would touch (a password field, a form it submits, a link's address).
 *
 * @param role       the ARIA role (or the tag name where it has none)
 * @param name       the accessible name, possibly empty
 * @param tag        the element's tag name
 * @param password   an {@code <input type=password>}
 * @param submits    a submit control of a form (a button without type or of type submit, input submit/image)
 * @param inForm     inside a form, or owned by one
 * @param singleLine an {@code <input>}, where Enter submits the form
 * @param editable   one can type into it (a field, a select, contenteditable; not disabled or read-only)
 * @param formAction the address its form posts to, empty outside a form
 * @param link       the address of the link it is in, empty outside a link
 */
record PageElement(String role, String name, String tag, boolean password, boolean submits, boolean inForm,
    boolean singleLine, boolean editable, String formAction, String link) {

  static PageElement of(Map<String, Object> described) {
    return new PageElement(text(described, "role"), text(described, "name"), text(described, "tag"),
        flag(described, "password"), flag(described, "submits"), flag(described, "inForm"),
        flag(described, "singleLine"), flag(described, "editable"), text(described, "formAction"),
        text(described, "link"));
  }

  /** {@code button "Send"}, as a snapshot shows it. */
  String label() {
    return role + (name.isEmpty() ? "" : " \"" + name + "\"");
  }

  /** {@code button "Send" [ref=e6]}. */
  String label(String ref) {
    return label() + " [ref=" + ref + "]";
  }

  private static String text(Map<String, Object> described, String key) {
    Object value = described.get(key);
    return value == null ? "" : String.valueOf(value);
  }

  private static boolean flag(Map<String, Object> described, String key) {
    return Boolean.TRUE.equals(described.get(key));
  }
}
