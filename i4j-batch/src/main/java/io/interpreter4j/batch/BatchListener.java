package io.interpreter4j.batch;

import io.interpreter4j.batch.progress.Progress;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.runtime.session.Session;
import java.util.List;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Hears a batch as it runs: the progress bar, the {@code --json} printer and (later) the dashboard. Called on the
 * batch job's thread, one call at a time, after the journal has recorded the step; return quickly. A listener
 * that throws is dropped, never the batch.
 */
public interface BatchListener {

  /** A task's session started. {@code session} takes {@link Session.Subscribe} to follow its events live. */
  record TaskStarted(BatchTask task, String sessionId, ActorRef<Session.Command> session) {}

  default void onBatchStarted(Progress progress) {}

  /**
   * A task's session is about to be created with this id: what should get every one of its events from the first
   * (a server's hub, which shows it live). Called before {@link #onTaskStarted}.
   */
  default List<Consumer<Event>> subscribersOf(BatchTask task, String sessionId) {
    return List.of();
  }

  default void onTaskStarted(TaskStarted started, Progress progress) {}

  /** A task finished; its result is already in the journal and the results file. */
  default void onTaskFinished(TaskResult result, Progress progress) {}

  /** About twice a second while the batch runs. */
  default void onProgress(Progress progress) {}

  default void onBatchFinished(BatchSummary summary) {}
}
