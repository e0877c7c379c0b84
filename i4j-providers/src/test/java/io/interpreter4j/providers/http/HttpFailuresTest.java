package io.interpreter4j.providers.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.model.ModelException;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class HttpFailuresTest {

  private static final Endpoint OPENAI = new Endpoint("openai", "https://api.openai.com/v1/", Optional.of("k"),
      "OPENAI_API_KEY");

  private static ModelException status(int code, String body) {
    return HttpFailures.fromStatus(OPENAI, "gpt-4o", code, body, Optional.of(Duration.ofSeconds(2)));
  }

  @Test
  void clientErrorsAreFinalAndNameTheFix() {
    assertEquals("the API key was rejected (401): check OPENAI_API_KEY or pass --api-key", status(401, "").getMessage());
    assertEquals("model 'gpt-4o' not found at https://api.openai.com/v1 (404): check the model name and --api-base",
        status(404, "").getMessage());
    ModelException tooLong = status(400, "{\"error\":{\"message\":\"maximum context length is 128000 tokens\"}}");
    assertEquals("openai rejected the request (400): maximum context length is 128000 tokens", tooLong.getMessage());
    assertTrue(status(403, "{\"error\":\"nope\"}").getMessage().contains("access denied (403): nope"));
    for (int code : new int[] {400, 401, 403, 404, 413, 422}) {
      assertFalse(status(code, "").retryable(), "status " + code);
    }
  }

  @Test
  void serverErrorsAndRateLimitsAreRetryableWithTheirHint() {
    for (int code : new int[] {408, 429, 500, 502, 503, 529}) {
      ModelException e = status(code, "");
      assertTrue(e.retryable(), "status " + code);
      assertEquals(Optional.of(Duration.ofSeconds(2)), e.retryAfter());
    }
    ModelException quota = status(429, "{\"error\":{\"message\":\"You exceeded your current quota\","
        + "\"type\":\"insufficient_quota\",\"code\":\"insufficient_quota\"}}");
    assertFalse(quota.retryable());
    assertTrue(quota.getMessage().contains("quota"));
  }

  @Test
  void transportFailuresAreRetryable() {
    ModelException refused = HttpFailures.fromThrowable(OPENAI,
        new CompletionException(new IOException("wrapped", new ConnectException("Connection refused"))),
        Duration.ofSeconds(60));
    assertTrue(refused.retryable());
    assertTrue(refused.getMessage().startsWith("could not connect to https://api.openai.com/v1: is the server running?"));
    ModelException stalled = HttpFailures.fromThrowable(OPENAI, new TimeoutException("idle"), Duration.ofSeconds(60));
    assertTrue(stalled.retryable());
    assertEquals("https://api.openai.com/v1 sent nothing for 60s; the stalled call was aborted", stalled.getMessage());
    assertFalse(HttpFailures.fromThrowable(OPENAI, new NullPointerException("bug"), Duration.ofSeconds(1)).retryable());
  }

  @Test
  void providerMessageReadsBothVendorsErrorShapes() {
    assertEquals("bad", HttpFailures.providerMessage("{\"type\":\"error\",\"error\":{\"type\":\"x\",\"message\":\"bad\"}}"));
    assertEquals("plain text body", HttpFailures.providerMessage("plain   text\nbody"));
    assertEquals("", HttpFailures.providerMessage(""));
  }

  @Test
  void retryAfterReadsSecondsDatesAndMilliseconds() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    assertEquals(Optional.of(Duration.ofSeconds(3)), RetryAfter.parse("3", now));
    assertEquals(Optional.of(Duration.ofMillis(1500)), RetryAfter.parse("1.5", now));
    assertEquals(Optional.of(Duration.ofSeconds(90)), RetryAfter.parse("Thu, 01 Jan 2026 00:01:30 GMT", now));
    assertEquals(Optional.of(Duration.ZERO), RetryAfter.parse("Wed, 31 Dec 2025 23:00:00 GMT", now));
    assertEquals(Optional.empty(), RetryAfter.parse("soon", now));
    assertEquals(Optional.of(Duration.ofMillis(250)),
        RetryAfter.parse(Optional.of("3"), Optional.of("250"), now));
    assertEquals(Optional.of(Duration.ofSeconds(3)), RetryAfter.parse(Optional.of("3"), Optional.empty(), now));
  }
}
