package io.interpreter4j.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Facts about the machine a run happened on, and small /proc readers the sections share. */
public final class Machine {

  private Machine() {}

  public static ObjectNode describe() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("cpus", Runtime.getRuntime().availableProcessors());
    node.put("cpu", firstLine(Path.of("/proc/cpuinfo"), "model name"));
    node.put("memory_gib", Samples.round(kb(Path.of("/proc/meminfo"), "MemTotal:") / 1024.0 / 1024.0));
    node.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    node.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
    node.put("python", Tools.python() + " " + Tools.output(List.of(Tools.python(), "--version")).strip());
    node.put("bash", Tools.output(List.of("bash", "-c", "echo $BASH_VERSION")).strip());
    return node;
  }

  /** The 1, 5 and 15 minute load averages ({@code /proc/loadavg}). */
  public static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** A "Key: 123 kB" line of a /proc file, in kB; -1 when absent. */
  public static long kb(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(key)) {
          String[] parts = line.substring(key.length()).trim().split("\\s+");
          return Long.parseLong(parts[0]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }

  /** Peak resident set size of this JVM (VmHWM), in MiB. */
  public static double peakRssMib() {
    return kb(Path.of("/proc/self/status"), "VmHWM:") / 1024.0;
  }

  /** Resident set size of a process (VmRSS), in MiB; -1 when gone. */
  public static double rssMib(long pid) {
    long kb = kb(Path.of("/proc/" + pid + "/status"), "VmRSS:");
    return kb < 0 ? -1 : kb / 1024.0;
  }

  private static String firstLine(Path file, String prefix) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(prefix)) {
          int colon = line.indexOf(':');
          return colon < 0 ? line : line.substring(colon + 1).strip();
        }
      }
    } catch (IOException e) {
      return "unknown";
    }
    return "unknown";
  }
}
