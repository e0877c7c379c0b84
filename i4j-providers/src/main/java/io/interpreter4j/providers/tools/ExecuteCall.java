package io.interpreter4j.providers.tools;

/**
 * A complete call of the {@code execute} tool, as the model made it and as it was shown to the session: a fenced
 * block tagged {@code info} holding {@code code}.
 *
 * @param id        the call's id (the provider's, or one made up when the server sent none)
 * @param name      the function the model called ({@code execute}, or a name a weak model made up)
 * @param arguments the arguments exactly as streamed: a JSON object
 * @param info      the info string of the block it became ("" = the default language)
 * @param code      the decoded code
 */
public record ExecuteCall(String id, String name, String arguments, String info, String code) {

  public ExecuteCall withId(String newId) {
    return new ExecuteCall(newId, name, arguments, info, code);
  }
}
