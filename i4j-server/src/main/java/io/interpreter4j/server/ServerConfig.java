package io.interpreter4j.server;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * How {@code i4j serve} listens and guards itself.
 *
 * @param host            address to bind; a non-loopback one needs {@code allowRemote}
 * @param port            port to bind; 0 picks a free one
 * @param allowRemote     whether binding a non-loopback address is allowed ({@code --allow-remote})
 * @param token           the API token; null or blank: one is generated (see {@link #tokenFrom})
 * @param ringSize        recent events kept in memory per session for replays (deltas included)
 * @param ringBytes       about how much text those recent events may hold per session
 * @param sseBufferSize   events queued per event-stream client before it is cut off (it reconnects)
 * @param maxAuthFailures wrong tokens per client address per minute before 429
 * @param keepAlive       interval of the {@code : keep-alive} comment on idle event streams (and of the {@code : ping}
 *                        of idle {@code /v1/chat/completions} streams)
 * @param allowedOrigins  more origins allowed to send POST/DELETE (e.g. {@code https://i4j.example.org} behind a proxy)
 * @param sseFlushInterval the shortest time between two writes of a session's events to each of its event-stream
 *                        clients: events that come faster go out together, after at most this long; zero: each
 *                        event at once
 */
public record ServerConfig(String host, int port, boolean allowRemote, String token, int ringSize, long ringBytes,
                           int sseBufferSize,
                           int maxAuthFailures, Duration keepAlive, List<String> allowedOrigins,
                           Duration sseFlushInterval) {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 8717;
  /** The environment variable that sets the token. */
  public static final String TOKEN_VARIABLE = "I4J_TOKEN";
  /** See {@code sseFlushInterval}. */
  public static final Duration DEFAULT_SSE_FLUSH_INTERVAL = Duration.ofMillis(10);

  public ServerConfig {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("the host to bind must not be empty");
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("the port must be between 0 and 65535, not " + port);
    }
    if (ringSize < 1 || ringBytes < 1 || sseBufferSize < 1 || maxAuthFailures < 1) {
      throw new IllegalArgumentException("ringSize, ringBytes, sseBufferSize and maxAuthFailures must be at least 1");
    }
    if (keepAlive == null || keepAlive.isZero() || keepAlive.isNegative()) {
      throw new IllegalArgumentException("keepAlive must be positive");
    }
    if (sseFlushInterval == null || sseFlushInterval.isNegative()) {
      throw new IllegalArgumentException("sseFlushInterval must be zero or positive");
    }
    allowedOrigins = List.copyOf(allowedOrigins);
  }

  /**
   * 127.0.0.1:8717, loopback only, a generated token, 20 000 events (at most about 8 MiB) kept per session, 1 024 per
   * client, 10 failures a minute, a keep-alive every 15 s, a session's events written to its clients at most every
   * 10 ms.
   */
  public static ServerConfig defaults() {
    return new ServerConfig(DEFAULT_HOST, DEFAULT_PORT, false, null, 20_000,
        8L << 20, 1_024, 10, Duration.ofSeconds(15), List.of(), DEFAULT_SSE_FLUSH_INTERVAL);
  }

  /** The token from {@code I4J_TOKEN}, or null when unset (then one is generated). */
  public static String tokenFrom(Map<String, String> env) {
    String t = env.get(TOKEN_VARIABLE);
    return t == null || t.isBlank() ? null : t.strip();
  }

  /** 32 random bytes, URL-safe base64 without padding. */
  public static String generateToken() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  public ServerConfig withHost(String value) {
    return new ServerConfig(value, port, allowRemote, token, ringSize,
        ringBytes, sseBufferSize, maxAuthFailures, keepAlive, allowedOrigins, sseFlushInterval);
  }

  public ServerConfig withPort(int value) {
    return new ServerConfig(host, value, allowRemote, token, ringSize,
        ringBytes, sseBufferSize, maxAuthFailures, keepAlive, allowedOrigins, sseFlushInterval);
  }

  public ServerConfig withAllowRemote(boolean value) {
    return new ServerConfig(host, port, value, token, ringSize,
        ringBytes, sseBufferSize, maxAuthFailures, keepAlive, allowedOrigins, sseFlushInterval);
  }

  public ServerConfig withToken(String value) {
    return new ServerConfig(host, port, allowRemote, value, ringSize,
        ringBytes, sseBufferSize, maxAuthFailures, keepAlive, allowedOrigins, sseFlushInterval);
  }

  public ServerConfig withRingSize(int value) {
    return new ServerConfig(host, port, allowRemote, token, value,
        ringBytes, sseBufferSize, maxAuthFailures, keepAlive, allowedOrigins, sseFlushInterval);
  }

  public ServerConfig withRingBytes(long value) {
    return new ServerConfig(host, port, allowRemote, token, ringSize,
        value, sseBufferSize, maxAuthFailures, keepAlive, allowedOrigins, sseFlushInterval);
  }

  public ServerConfig withSseBufferSize(int value) {
    return new ServerConfig(host, port, allowRemote, token, ringSize,
        ringBytes, value, maxAuthFailures, keepAlive, allowedOrigins, sseFlushInterval);
  }

  public ServerConfig withMaxAuthFailures(int value) {
    return new ServerConfig(host, port, allowRemote, token, ringSize,
        ringBytes, sseBufferSize, value, keepAlive, allowedOrigins, sseFlushInterval);
  }

  public ServerConfig withKeepAlive(Duration value) {
    return new ServerConfig(host, port, allowRemote, token, ringSize,
        ringBytes, sseBufferSize, maxAuthFailures, value, allowedOrigins, sseFlushInterval);
  }

  public ServerConfig withAllowedOrigins(List<String> value) {
    return new ServerConfig(host, port, allowRemote, token, ringSize,
        ringBytes, sseBufferSize, maxAuthFailures, keepAlive, value, sseFlushInterval);
  }

  public ServerConfig withSseFlushInterval(Duration value) {
    return new ServerConfig(host, port, allowRemote, token, ringSize,
        ringBytes, sseBufferSize, maxAuthFailures, keepAlive, allowedOrigins, value);
  }

  @Override
  public String toString() {
    // never print the token
    return "ServerConfig[host=" + host + ", port=" + port + ", allowRemote=" + allowRemote + ", token="
        + (token == null ? "generated" : "***") + ", ringSize=" + ringSize + ", ringBytes=" + ringBytes
        + ", sseBufferSize=" + sseBufferSize
        + ", maxAuthFailures=" + maxAuthFailures + ", keepAlive=" + keepAlive + ", allowedOrigins=" + allowedOrigins
        + ", sseFlushInterval=" + sseFlushInterval + "]";
  }
}
