package io.interpreter4j.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;

/** Latency samples in nanoseconds and their order statistics, reported in milliseconds. */
public final class Samples {

  private long[] nanos;
  private int size;

  public Samples(int capacity) {
    this.nanos = new long[Math.max(16, capacity)];
  }

  public synchronized void add(long value) {
    if (size == nanos.length) {
      nanos = Arrays.copyOf(nanos, size * 2);
    }
    nanos[size++] = value;
  }

  public synchronized int size() {
    return size;
  }

  /** The samples in the order they were added, in nanoseconds. */
  public synchronized long[] toArray() {
    return Arrays.copyOf(nanos, size);
  }

  /** The q-quantile (0..1) by the nearest-rank method, in milliseconds. */
  public synchronized double quantileMs(double q) {
    if (size == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(nanos, size);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(q * size);
    return sorted[Math.min(size - 1, Math.max(0, rank - 1))] / 1e6;
  }

  public double medianMs() {
    return quantileMs(0.5);
  }

  public double p99Ms() {
    return quantileMs(0.99);
  }

  public synchronized double meanMs() {
    long sum = 0;
    for (int i = 0; i < size; i++) {
      sum += nanos[i];
    }
    return size == 0 ? Double.NaN : sum / 1e6 / size;
  }

  /** {"median_ms", "p99_ms", "min_ms", "max_ms", "mean_ms", "n"}. */
  public ObjectNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("median_ms", round(medianMs()));
    node.put("p99_ms", round(p99Ms()));
    node.put("min_ms", round(quantileMs(0)));
    node.put("max_ms", round(quantileMs(1)));
    node.put("mean_ms", round(meanMs()));
    node.put("n", size());
    return node;
  }

  /** Three significant decimals below 10, fewer above: enough for a table. */
  public static double round(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return value;
    }
    double scale = Math.abs(value) >= 100 ? 10 : Math.abs(value) >= 10 ? 100 : 1000;
    if (Math.abs(value) < 0.01 && value != 0) {
      scale = 100_000;
    }
    return Math.round(value * scale) / scale;
  }

  /**
   * One figure per run as {"median", "min", "max", "runs": [...]}: the middle run (the lower of the two middle ones for
   * an even count; NaN when there is none) with the range.
   */
  public static ObjectNode spread(double[] runs) {
    double[] sorted = runs.clone();
    Arrays.sort(sorted);
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("median", round(sorted.length == 0 ? Double.NaN : sorted[(sorted.length - 1) / 2]));
    node.put("min", round(sorted.length == 0 ? Double.NaN : sorted[0]));
    node.put("max", round(sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1]));
    ArrayNode each = node.putArray("runs");
    Arrays.stream(runs).forEach(v -> each.add(round(v)));
    return node;
  }

  /** {@link #spread(double[])} of whole numbers shown in units of {@code unit} (1e6: nanoseconds as ms). */
  public static ObjectNode spread(long[] runs, double unit) {
    return spread(Arrays.stream(runs).mapToDouble(v -> v / unit).toArray());
  }

  /** baseline / ours: how many times faster ours is (higher is better). */
  public static double speedup(double baseline, double ours) {
    return round(baseline / ours);
  }
}
