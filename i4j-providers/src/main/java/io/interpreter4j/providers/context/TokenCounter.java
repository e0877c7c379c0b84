package io.interpreter4j.providers.context;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import io.interpreter4j.core.model.ChatMessage;
import java.util.List;

/**
 * Counts the tokens a text or a conversation costs a model. Exact (jtokkit's BPE) for OpenAI's models,
 * a conservative estimate of one token per three characters for the rest, whose tokenizers we don't ship.
 */
@FunctionalInterface
public interface TokenCounter {

  /** Tokens of a message's role and framing in the chat format (OpenAI's cookbook counts 3 to 4). */
  int MESSAGE_OVERHEAD = 4;
  /** Tokens that prime the reply after the last message. */
  int REPLY_PRIMING = 3;

  int count(String text);

  /** The message's text and framing, and each image it carries at {@link io.interpreter4j.core.image.ImageRef#tokens()}. */
  default int count(ChatMessage message) {
    int images = 0;
    for (var image : message.images()) {
      images += image.tokens();
    }
    return count(message.content()) + MESSAGE_OVERHEAD + images;
  }

  default int count(List<ChatMessage> messages) {
    int total = REPLY_PRIMING;
    for (ChatMessage m : messages) {
      total += count(m);
    }
    return total;
  }

  /** One token per three characters, rounded up: above the real count for English, code and most scripts. */
  static TokenCounter estimate() {
    return text -> (text.length() + 2) / 3;
  }

  /** The BPE encoding of an OpenAI model (o200k_base for gpt-4o, gpt-4.1, gpt-5, o-series; cl100k_base for gpt-4, gpt-3.5). */
  static TokenCounter openAi(EncodingType type) {
    Encoding encoding = Registry.INSTANCE.getEncoding(type);
    return encoding::countTokensOrdinary;
  }

  /** The best counter known for a model name (as given after the provider prefix). */
  static TokenCounter forModel(String model) {
    String m = ContextWindows.normalise(model);
    if (m.startsWith("gpt-4o") || m.startsWith("chatgpt-4o") || m.startsWith("gpt-4.1") || m.startsWith("gpt-4.5")
        || m.startsWith("gpt-5") || m.startsWith("gpt-oss") || m.matches("o[1-9]([-.].*)?")) {
      return openAi(EncodingType.O200K_BASE);
    }
    if (m.startsWith("gpt-4") || m.startsWith("gpt-3.5")) {
      return openAi(EncodingType.CL100K_BASE);
    }
    return estimate();
  }

  /** jtokkit's registry, loaded on first use: each encoding's tables take a moment to read. */
  final class Registry {
    static final EncodingRegistry INSTANCE = Encodings.newLazyEncodingRegistry();

    private Registry() {}
  }
}
