package io.interpreter4j.runtime.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.testing.RequiredTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class SeatbeltSandboxTest {

  @TempDir
  Path workdir;

  static boolean isMac() {
    return System.getProperty("os.name").toLowerCase().contains("mac");
  }

  @Test
  void theProfileDeniesWritesButToTheParameterPathsAndDeniesIpNetworking() {
    String profile = SeatbeltSandbox.profile(false);
    assertTrue(profile.startsWith("(version 1)\n(allow default)\n(deny file-write*)\n"), profile);
    assertTrue(profile.contains("(subpath (param \"WORKDIR\"))"), profile);
    assertTrue(profile.contains("(subpath (param \"SESSION_DIR\"))"), profile);
    assertTrue(profile.contains("(literal \"/dev/null\")"), profile);
    assertTrue(profile.contains("(deny network*)"), profile);
    assertTrue(profile.contains("(allow network* (local unix-socket) (remote unix-socket))"), profile);
    assertFalse(SeatbeltSandbox.profile(true).contains("network"), "network allowed: no rule about it");
    assertEquals(count(profile, '('), count(profile, ')'), "balanced parentheses");
  }

  @Test
  void argvPassesPathsAsParametersNotInTheProfileText() {
    Path session = workdir.resolve("s\"x");
    List<String> argv = new SeatbeltSandbox(false).wrap(List.of("python3", "-u"), workdir, session);
    assertEquals(List.of("/usr/bin/sandbox-exec", "-p", SeatbeltSandbox.profile(false)), argv.subList(0, 3));
    assertTrue(argv.contains("-D"));
    assertTrue(argv.stream().anyMatch(a -> a.startsWith("WORKDIR=") && a.endsWith(workdir.getFileName().toString())));
    assertTrue(argv.contains("SESSION_DIR=" + session.toAbsolutePath()), argv.toString());
    assertEquals(List.of("python3", "-u"), argv.subList(argv.size() - 2, argv.size()));
    assertFalse(argv.get(2).contains(workdir.toString()));
  }

  @Test
  void maskedPathsAreParametersDeniedForReadingAndWritingAndAFolderInsideOneIsAllowedAgain() throws Exception {
    Path ssh = Files.createDirectories(workdir.resolve("home/.ssh"));
    Path data = Files.createDirectories(workdir.resolve("home/data"));
    Path session = Files.createDirectories(data.resolve("sessions/abc"));
    Path work = Files.createDirectories(workdir.resolve("work"));
    MaskedPaths masked = MaskedPaths.of(List.of(ssh, data, workdir.resolve("home/.aws")), List.of());
    List<String> argv = new SeatbeltSandbox(false, masked).wrap(List.of("true"), work, session);
    String profile = argv.get(2);
    assertEquals(SeatbeltSandbox.profile(false, 2, List.of("SESSION_DIR")), profile);
    assertTrue(profile.contains("(deny file-read-data file-write* (subpath (param \"MASK_0\")))"), profile);
    assertTrue(profile.indexOf("MASK_1") < profile.indexOf("(allow file-read-data file-write* (subpath (param "
        + "\"SESSION_DIR\")))"), "the later rule wins: " + profile);
    assertTrue(argv.contains("MASK_0=" + ssh.toRealPath()), argv.toString());
    assertTrue(argv.contains("MASK_1=" + data.toRealPath()), argv.toString());
    assertFalse(argv.stream().anyMatch(a -> a.startsWith("MASK_2")), "what does not exist needs no rule");
    assertFalse(profile.contains(ssh.toString()), "paths are parameters, never profile text");
    assertEquals(count(profile, '('), count(profile, ')'), "balanced parentheses");
    assertTrue(new SeatbeltSandbox(true, masked).promptSentence().contains("are hidden"));
  }

  @Test
  @DisabledOnOs(value = OS.MAC, disabledReason = "this machine is a Mac")
  void offMacOsItIsUnavailableWithTheReason() {
    String reason = new SeatbeltSandbox(false).availability().orElseThrow();
    assertTrue(reason.startsWith("the seatbelt sandbox (sandbox-exec) needs macOS"), reason);
  }

  @Test
  void onMacOsWritesOutsideTheWorkdirFail() throws Exception {
    // exempt: sandbox-exec exists only on macOS, and CI runs Linux
    RequiredTool.exempt(isMac(), "sandbox-exec (seatbelt)", "it needs macOS; this is " + System.getProperty("os.name"));
    SeatbeltSandbox sandbox = new SeatbeltSandbox(false);
    sandbox.check();
    Path home = Path.of(System.getProperty("user.home"), "i4j-seatbelt-probe");
    Subprocess.Result outside = Subprocess.run(sandbox.wrap(List.of("/usr/bin/touch", home.toString()), workdir, workdir),
        workdir, Map.of(), Duration.ofSeconds(30));
    assertNotEquals(0, outside.exitCode(), outside.output());
    assertFalse(Files.exists(home));
    Subprocess.Result inside = Subprocess.run(sandbox.wrap(List.of("/usr/bin/touch", "kept"), workdir, workdir),
        workdir, Map.of(), Duration.ofSeconds(30));
    assertEquals(0, inside.exitCode(), inside.output());
    assertTrue(Files.exists(workdir.resolve("kept")));
  }

  private static long count(String text, char c) {
    return text.chars().filter(x -> x == c).count();
  }
}
