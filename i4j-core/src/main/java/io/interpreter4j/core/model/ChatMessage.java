package io.interpreter4j.core.model;

/** One message of the conversation sent to a model. */
public record ChatMessage(Role role, String content) {

  public enum Role { SYSTEM, USER, ASSISTANT }

  public static ChatMessage system(String content) { return new ChatMessage(Role.SYSTEM, content); }

  public static ChatMessage user(String content) { return new ChatMessage(Role.USER, content); }

  public static ChatMessage assistant(String content) { return new ChatMessage(Role.ASSISTANT, content); }
}
