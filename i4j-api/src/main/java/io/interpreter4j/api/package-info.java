/**
 * interpreter4j as a Java library: an {@link io.interpreter4j.api.Interpreter} configured once (model, auto-run,
 * working directory, sandbox, approver) opens any number of {@link io.interpreter4j.api.Session}s, each a
 * conversation with its own REPL processes. A session chats ({@link io.interpreter4j.api.Session#chat(String)}),
 * runs code without the model ({@link io.interpreter4j.api.Session#execute(String, String)}) and publishes its
 * {@link io.interpreter4j.api.Event}s with backpressure ({@link io.interpreter4j.api.Session#events()}).
 * See docs/java-api.md.
 */
package io.interpreter4j.api;
