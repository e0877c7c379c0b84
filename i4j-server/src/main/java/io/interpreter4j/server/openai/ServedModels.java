package io.interpreter4j.server.openai;

import java.util.ArrayList;
import java.util.List;

/**
 * The models a client of {@code /v1} may name: {@code i4j} (the server's own model) and the ones the server's
 * configuration names ({@code interpreter4j.model} and {@code interpreter4j.server.models}). A {@code replay:}
 * model is never taken from a request, nor listed: a request must not make the server read a file.
 */
public final class ServedModels {
  /** The name of the server's own model. */
  public static final String SERVER_MODEL = "i4j";
  private static final String REPLAY = "replay:";

  private final List<String> configured;

  /**
   * @param serverModel the server's model ({@code interpreter4j.model}); may be blank
   * @param more        {@code interpreter4j.server.models}
   */
  public ServedModels(String serverModel, List<String> more) {
    List<String> names = new ArrayList<>();
    for (String m : concat(serverModel, more)) {
      if (m != null && !m.isBlank() && !m.startsWith(REPLAY) && !m.equals(SERVER_MODEL) && !names.contains(m)) {
        names.add(m.strip());
      }
    }
    this.configured = List.copyOf(names);
  }

  /** {@code i4j} first, then the configured models. */
  public List<String> ids() {
    List<String> ids = new ArrayList<>(configured.size() + 1);
    ids.add(SERVER_MODEL);
    ids.addAll(configured);
    return ids;
  }

  /**
   * The model spec a session is made with for a requested name: null (the server's default) for {@code i4j} or no
   * name, else the configured model itself.
   *
   * @throws IllegalArgumentException for any other name, saying which ones are served
   */
  public String specFor(String requested) {
    if (requested == null || requested.isBlank() || requested.equals(SERVER_MODEL)) {
      return null;
    }
    if (configured.contains(requested)) {
      return requested;
    }
    String why = requested.startsWith(REPLAY) ? "replay models are not taken from requests; "
        : "the server does not serve it; ";
    throw new IllegalArgumentException("model '" + requested + "': " + why + "use one of " + String.join(", ", ids())
        + " (GET /v1/models)");
  }

  private static List<String> concat(String first, List<String> rest) {
    List<String> all = new ArrayList<>();
    all.add(first);
    all.addAll(rest);
    return all;
  }
}
