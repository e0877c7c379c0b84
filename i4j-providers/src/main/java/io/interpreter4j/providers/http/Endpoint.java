package io.interpreter4j.providers.http;

import java.util.Optional;

/**
 * Where a provider sends its calls: a display name ({@code openai}, {@code ollama}, ...), the API's base URL
 * (without a trailing slash), the key if any, and the environment variable the key comes from, named in errors.
 */
public record Endpoint(String provider, String baseUrl, Optional<String> apiKey, String keyVariable) {

  public Endpoint {
    baseUrl = trimSlash(baseUrl);
    apiKey = apiKey.filter(k -> !k.isBlank());
  }

  /** How the user fixes a rejected key: "check OPENAI_API_KEY or pass --api-key". */
  public String keyHint() {
    return keyVariable.isEmpty() ? "pass the right key with --api-key" : "check " + keyVariable + " or pass --api-key";
  }

  public static String trimSlash(String url) {
    String u = url.strip();
    while (u.endsWith("/")) {
      u = u.substring(0, u.length() - 1);
    }
    return u;
  }
}
