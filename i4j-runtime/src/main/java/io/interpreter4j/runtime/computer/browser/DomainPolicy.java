package io.interpreter4j.runtime.computer.browser;

import static java.util.stream.Collectors.joining;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where the browser may go: {@code interpreter4j.browser.allowed-domains} and {@code blocked-domains}. A pattern is a
 * host name where {@code *} stands for any run of characters, dots included ({@code *.example.com} is every
 * subdomain of example.com, not example.com itself; {@code *} is every host); ports and paths are not part of it.
 * A blocked pattern wins over an allowed one. Only http and https addresses can be visited (about:blank aside).
 */
public final class DomainPolicy {

  /** Everything allowed, nothing blocked: reference.conf's defaults. */
  public static final DomainPolicy OPEN = new DomainPolicy(List.of("*"), List.of());

  private final List<String> allowed;
  private final List<String> blocked;
  private final List<Pattern> allowedPatterns;
  private final List<Pattern> blockedPatterns;

  /** @throws IllegalArgumentException naming the first entry that is no host pattern */
  public DomainPolicy(List<String> allowed, List<String> blocked) {
    this.allowed = normalized(allowed, "allowed-domains");
    this.blocked = normalized(blocked, "blocked-domains");
    this.allowedPatterns = this.allowed.stream().map(DomainPolicy::glob).toList();
    this.blockedPatterns = this.blocked.stream().map(DomainPolicy::glob).toList();
  }

  public List<String> allowed() {
    return allowed;
  }

  public List<String> blocked() {
    return blocked;
  }

  /** Why the browser may not go to {@code url} (a top-level or frame navigation); empty when it may. */
  public Optional<String> refusal(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (Exception e) {
      return Optional.of("navigation to " + url + " refused: it is not a valid address");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (url.equals("about:blank")) {
      return Optional.empty();
    }
    if (!scheme.equals("http") && !scheme.equals("https")) {
      return Optional.of("navigation to " + url + " refused: only http and https addresses can be visited");
    }
    String host = host(uri);
    if (host.isEmpty()) {
      return Optional.of("navigation to " + url + " refused: the address has no host");
    }
    Optional<String> blockedBy = firstMatch(host, blocked, blockedPatterns);
    if (blockedBy.isPresent()) {
      return Optional.of("navigation to " + url + " refused: " + host + " matches blocked-domains entry "
          + blockedBy.get());
    }
    if (firstMatch(host, allowed, allowedPatterns).isEmpty()) {
      return Optional.of("navigation to " + url + " refused: " + host + " is not in allowed-domains " + allowed);
    }
    return Optional.empty();
  }

  /**
   * Why a page may not load {@code url} as a subresource (image, script, fetch): only blocked-domains apply, since an
   * allow-list names where the model is taken, and pages load their assets from elsewhere (CDNs). Addresses that are
   * not http(s) (data:, blob:) are left to the browser.
   */
  public Optional<String> subresourceRefusal(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (Exception e) {
      return Optional.empty();
    }
    String host = host(uri);
    if (host.isEmpty()) {
      return Optional.empty();
    }
    return firstMatch(host, blocked, blockedPatterns)
        .map(entry -> "request to " + url + " refused: " + host + " matches blocked-domains entry " + entry);
  }

  private static String host(URI uri) {
    String host = uri.getHost();
    if (host == null) {
      return "";
    }
    host = host.toLowerCase(Locale.ROOT);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
  }

  private static Optional<String> firstMatch(String host, List<String> entries, List<Pattern> patterns) {
    for (int i = 0; i < patterns.size(); i++) {
      if (patterns.get(i).matcher(host).matches()) {
        return Optional.of(entries.get(i));
      }
    }
    return Optional.empty();
  }

  private static List<String> normalized(List<String> entries, String key) {
    return entries.stream().map(entry -> {
      String e = entry == null ? "" : entry.strip().toLowerCase(Locale.ROOT);
      if (e.isEmpty() || !e.matches("[a-z0-9*._:\\[\\]-]+") || e.contains("://")) {
        throw new IllegalArgumentException("interpreter4j.browser." + key + ": '" + entry + "' is not a host "
            + "pattern; write a host name, * standing for any characters: \"example.com\", \"*.example.com\", \"*\"");
      }
      return e.startsWith("[") && e.endsWith("]") ? e.substring(1, e.length() - 1) : e;
    }).toList();
  }

  private static Pattern glob(String entry) {
    return Pattern.compile(Arrays.stream(entry.split("\\*", -1)).map(Pattern::quote).collect(joining(".*")));
  }
}
