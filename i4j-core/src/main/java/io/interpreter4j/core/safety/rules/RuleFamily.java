package io.interpreter4j.core.safety.rules;

/** A family of rules that judges commands of some tools by what they do to what. */
public interface RuleFamily {

  /** Judges one command, telling the block what it finds. */
  void judge(ToolCall call, Block block);
}
