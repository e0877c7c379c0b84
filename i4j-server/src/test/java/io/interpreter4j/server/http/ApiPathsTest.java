package io.interpreter4j.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Which folders count as the system's, whatever the machine has (no file is touched). */
class ApiPathsTest {

  @Test
  void theRootAndTheSystemFoldersWithWhatIsInThem() {
    assertEquals("/", ApiPaths.systemFolder(Path.of("/")));
    assertEquals("/etc", ApiPaths.systemFolder(Path.of("/etc")));
    assertEquals("/etc", ApiPaths.systemFolder(Path.of("/etc/nginx/sites")));
    assertEquals("/lib64", ApiPaths.systemFolder(Path.of("/lib64")));
    assertEquals("/lib", ApiPaths.systemFolder(Path.of("/lib/modules")));
    assertEquals("/usr", ApiPaths.systemFolder(Path.of("/usr")));
    assertEquals("/usr", ApiPaths.systemFolder(Path.of("/usr/share/doc")));
    assertEquals("/var", ApiPaths.systemFolder(Path.of("/var/lib/dpkg")));
    assertEquals("/etc", ApiPaths.systemFolder(Path.of("/private/etc")), "macOS");
    assertEquals("/etc", ApiPaths.systemFolder(Path.of("/tmp/../etc")));
  }

  @Test
  void placesPeopleKeepTheirOwnFilesIn() {
    assertNull(ApiPaths.systemFolder(Path.of("/home/ada/project")));
    assertNull(ApiPaths.systemFolder(Path.of("/tmp/work")));
    assertNull(ApiPaths.systemFolder(Path.of("/opt/app")));
    assertNull(ApiPaths.systemFolder(Path.of("/srv/site")));
    assertNull(ApiPaths.systemFolder(Path.of("/usr/src/app")), "container images build in /usr/src/app");
    assertNull(ApiPaths.systemFolder(Path.of("/var/www/html")));
    assertNull(ApiPaths.systemFolder(Path.of("/var/home/ada")), "Fedora Silverblue's homes");
    assertNull(ApiPaths.systemFolder(Path.of("/private/var/folders/xy/T/junit1")), "macOS temporary folders");
    assertNull(ApiPaths.systemFolder(Path.of("/library")), "named like /lib*, but not one");
  }
}
