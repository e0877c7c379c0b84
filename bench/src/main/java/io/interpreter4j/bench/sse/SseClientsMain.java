package io.interpreter4j.bench.sse;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.core.event.EventCodec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The SSE clients of {@code sse_fanout} in a JVM of their own ({@link SseClientsProcess} starts it), so that their
 * garbage and threads are not charged to the server they measure. A line protocol on stdin and stdout:
 * it prints {@code caught_up} once every client has seen the session's first turn; then, for each of the
 * {@code MEASURED} turns that follow, it reads {@code measure_from <epoch nanos>} and prints one JSON object when
 * every client has seen that turn or {@code <seconds>} have passed; errors go to stderr and a non-zero exit.
 *
 * <p>Arguments: {@code BASE_URL PATH TOKEN CLIENTS SECONDS MEASURED}.
 */
public final class SseClientsMain {

  private SseClientsMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println("usage: SseClientsMain BASE_URL PATH TOKEN CLIENTS SECONDS MEASURED");
      System.exit(2);
    }
    int clients = Integer.parseInt(args[3]);
    int seconds = Integer.parseInt(args[4]);
    int measured = Integer.parseInt(args[5]);
    List<CountDownLatch> turns = new ArrayList<>();
    for (int i = 0; i <= measured; i++) {
      turns.add(new CountDownLatch(clients));
    }
    AtomicLong measureFrom = new AtomicLong(Long.MAX_VALUE);
    AtomicReference<Samples> lag = new AtomicReference<>(new Samples(clients * 4096));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (SseClients open = new SseClients(args[0], args[1], args[2], clients, turns, measureFrom, lag)) {
      if (!turns.get(0).await(60, TimeUnit.SECONDS)) {
        System.err.println("not every SSE client got the first turn within 60 s");
        System.exit(1);
      }
      System.out.println("caught_up");
      System.out.flush();
      for (int turn = 1; turn <= measured; turn++) {
        String line = in.readLine();
        if (line == null || !line.startsWith("measure_from ")) {
          System.err.println("expected 'measure_from NANOS', got " + line);
          System.exit(1);
        }
        measureFrom.set(Long.parseLong(line.substring("measure_from ".length()).strip()));
        CountDownLatch finished = turns.get(turn);
        boolean all = finished.await(seconds, TimeUnit.SECONDS);
        // every client has this turn: the next one's events come only after the harness reads this result
        measureFrom.set(Long.MAX_VALUE);
        Samples samples = lag.getAndSet(new Samples(clients * 4096));
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.put("clients_saw_whole_turn", clients - (int) finished.getCount());
        result.put("all_clients_complete", all);
        result.put("deliveries", samples.size());
        result.set("lag", samples.toJson());
        System.out.println(EventCodec.mapper().copy().disable(SerializationFeature.INDENT_OUTPUT)
            .writeValueAsString(result));
        System.out.flush();
      }
    }
    System.exit(0);
  }
}
