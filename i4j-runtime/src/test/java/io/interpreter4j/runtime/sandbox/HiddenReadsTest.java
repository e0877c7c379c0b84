package io.interpreter4j.runtime.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which hidden host paths a launch gets back read-only; a temporary folder stands for the hidden /tmp. */
class HiddenReadsTest {

  @TempDir
  Path hidden;

  @TempDir
  Path elsewhere;

  List<Path> reads(List<Path> always, List<String> argv, Map<String, String> env, Path... writable) {
    return HiddenReads.of(List.of(hidden), List.of(writable), always, argv, env);
  }

  Path dir(Path path) throws IOException {
    return Files.createDirectories(path);
  }

  Path file(Path path) throws IOException {
    Files.createDirectories(path.getParent());
    return Files.writeString(path, "x");
  }

  @Test
  void theClassPathAndTheJvmOfTheCommandLineAreBound() throws IOException {
    Path classes = dir(hidden.resolve("checkout/i4j-runtime/target/classes"));
    Path jar = file(hidden.resolve("m2/dep.jar"));
    Path jdk = dir(hidden.resolve("jdk-17"));
    Path java = file(jdk.resolve("bin/java"));
    List<String> argv = List.of("sh", "-c", "exec \"$@\"", "i4j-java", java.toString(), "-Dfile.encoding=UTF-8",
        "-cp", classes + ":" + jar + ":" + elsewhere, "io.interpreter4j.runtime.repl.jshell.JShellDriver");
    // java is bin/java of an install: the whole JDK; the folder outside the hidden one is visible anyway
    assertEquals(List.of(jdk, jar, classes), reads(List.of(), argv, Map.of()));
  }

  @Test
  void aVirtualEnvironmentComesWholeForItsPythonAndItsPath() throws IOException {
    Path venv = dir(hidden.resolve("env"));
    file(venv.resolve("pyvenv.cfg"));
    Path python = file(venv.resolve("bin/python"));
    assertEquals(List.of(venv), reads(List.of(), List.of(python.toString(), "-u", "-c", "print(1)"), Map.of()));
    Path tools = dir(hidden.resolve("tools/bin"));
    assertEquals(List.of(venv, tools.getParent()), reads(List.of(), List.of("bash"),
        Map.of("PATH", tools + ":/usr/bin:relative/bin", "VIRTUAL_ENV", venv.toString())));
  }

  @Test
  void aLinkIsFollowedToWhereItLeads() throws IOException {
    Path real = dir(hidden.resolve("pythons/3.12"));
    Path binary = file(real.resolve("bin/python3.12"));
    Path venv = dir(hidden.resolve("env"));
    Path link = Files.createDirectories(venv.resolve("bin")).resolve("python");
    Files.createSymbolicLink(link, binary);
    // the link itself lies outside the hidden folder, through a linked folder
    Path linkedFolder = Files.createSymbolicLink(elsewhere.resolve("env"), venv);
    assertEquals(List.of(venv, real), reads(List.of(), List.of(linkedFolder.resolve("bin/python").toString()),
        Map.of()));
  }

  @Test
  void alwaysReadablePathsAreBoundWhenHiddenOnly() throws IOException {
    Path jar = file(hidden.resolve("i4j/lib/interpreter4j.jar"));
    assertEquals(List.of(jar), reads(List.of(jar, elsewhere), List.of("true"), Map.of()));
  }

  @Test
  void nothingWritableNothingInsideABoundFolderAndNeverTheHiddenFolderItself() throws IOException {
    Path workdir = dir(hidden.resolve("work"));
    Path venv = dir(workdir.resolve(".venv"));
    Path python = file(venv.resolve("bin/python"));
    Path checkout = dir(hidden.resolve("checkout"));
    Path inner = file(checkout.resolve("driver.sh"));
    Path top = file(hidden.resolve("bin/tool"));
    List<String> argv = List.of(python.toString(), hidden.toString(), inner.toString(), checkout.toString(),
        top.toString());
    // bin/tool right in the hidden folder: the file alone, not the hidden folder as its prefix
    assertEquals(List.of(checkout, top), reads(List.of(), argv, Map.of(), workdir));
    assertEquals(List.of(hidden.resolve("bin"), checkout),
        reads(List.of(), argv, Map.of("PATH", hidden + ":" + hidden + "/bin"), workdir));
  }

  @Test
  void wordsThatAreNoPathsAreIgnored() throws IOException {
    file(hidden.resolve("a"));
    assertEquals(List.of(), reads(List.of(), List.of("-c", "print('/')\n" + hidden.resolve("a"),
        hidden.resolve("missing").toString(), "relative/a", "x".repeat(5000) + "/" + hidden, hidden + "/a\u0000"),
        Map.of()));
    assertEquals(List.of(hidden.resolve("a")), HiddenReads.pathsIn("--file=" + hidden.resolve("a")));
  }
}
