package io.interpreter4j.runtime.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MaskedPathsTest {

  static final Path HOME = Path.of("/home/u");
  static final Path USER_HOME = Path.of(System.getProperty("user.home")).normalize();

  @TempDir
  Path tmp;

  @Test
  void theStandardListHidesSecretsBrowserProfilesAndInterpreter4jsFolders() {
    MaskedPaths masked = MaskedPaths.standard(Map.of("HOME", "/home/u"), Path.of("/data/i4j"), List.of());
    List<Path> paths = masked.paths();
    for (String secret : List.of(".ssh", ".aws", ".config/gcloud", ".azure", ".kube", ".gnupg", ".netrc", ".docker",
        ".mozilla", ".config/google-chrome", ".config/chromium", ".config/interpreter4j")) {
      assertTrue(paths.contains(HOME.resolve(secret)), secret + " in " + paths);
      // the JVM's user.home is covered too: code may find the home through either
      assertTrue(paths.contains(USER_HOME.resolve(secret)), secret + " under " + USER_HOME);
    }
    assertTrue(paths.contains(Path.of("/data/i4j")), paths.toString());
    assertFalse(paths.contains(HOME), "never the home itself");
  }

  @Test
  void xdgConfigHomeAndConfiguredPathsAreAdded() {
    MaskedPaths masked = MaskedPaths.standard(Map.of("HOME", "/home/u", "XDG_CONFIG_HOME", "/cfg"), null,
        List.of("~/.vault-token", "/srv/secrets/", " /srv/other "));
    assertTrue(masked.paths().contains(Path.of("/cfg/interpreter4j")));
    assertTrue(masked.paths().contains(HOME.resolve(".vault-token")));
    assertTrue(masked.paths().contains(USER_HOME.resolve(".vault-token")));
    assertTrue(masked.paths().contains(Path.of("/srv/secrets")));
    assertTrue(masked.paths().contains(Path.of("/srv/other")));
  }

  @Test
  void aRelativeConfiguredPathIsRejectedWithTheFix() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MaskedPaths.standard(Map.of("HOME", "/home/u"), null, List.of(".ssh")));
    assertEquals("interpreter4j.sandbox.masked-paths: '.ssh' is neither absolute nor under ~/; write /abs/path or "
        + "~/relative/path", e.getMessage());
  }

  @Test
  void neverTheRootNorAFolderHoldingAHome() {
    MaskedPaths masked = MaskedPaths.standard(Map.of("HOME", "/home/u"), null, List.of("/", "/home", "~", "~/x"));
    assertFalse(masked.paths().contains(Path.of("/")));
    assertFalse(masked.paths().contains(Path.of("/home")));
    assertFalse(masked.paths().contains(HOME));
    assertTrue(masked.paths().contains(HOME.resolve("x")));
  }

  @Test
  void presentListsWhatExistsAndWhereLinksLead() throws IOException {
    Path home = Files.createDirectories(tmp.toRealPath().resolve("home"));
    Path ssh = Files.createDirectories(home.resolve(".ssh"));
    Path elsewhere = Files.createDirectories(home.resolve("../elsewhere/aws")).toRealPath();
    Path aws = Files.createSymbolicLink(home.resolve(".aws"), elsewhere);
    Path dangling = Files.createSymbolicLink(home.resolve(".kube"), home.resolve("nowhere"));
    MaskedPaths masked = MaskedPaths.of(List.of(ssh, aws, dangling, home.resolve(".azure")), List.of());
    assertEquals(List.of(ssh, aws, elsewhere), masked.present(), "a link hides where it leads too");
  }

  @Test
  void displayShowsTheHomeAsTilde() {
    MaskedPaths masked = MaskedPaths.of(List.of(HOME.resolve(".ssh"), Path.of("/srv/x")), List.of());
    assertEquals(List.of("~/.ssh", "/srv/x"), masked.display(Map.of("HOME", "/home/u")));
  }
}
