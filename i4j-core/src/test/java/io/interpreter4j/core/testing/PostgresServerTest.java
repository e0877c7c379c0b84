package io.interpreter4j.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class PostgresServerTest {

  @Test
  void aPrivateServerAnswersOnItsPortAndLeavesNothingBehind() throws Exception {
    PostgresServer pg = PostgresServer.start("i4j_test");
    int port = pg.port();
    java.nio.file.Path folder = pg.folder();
    try {
      assertEquals("3", pg.sql("SELECT 1 + 2"));
      assertEquals("i4j_test", pg.sql("SELECT current_database()"));
      assertTrue(pg.jdbcUrl().endsWith("127.0.0.1:" + port + "/i4j_test"), pg.jdbcUrl());
      IOException bad = assertThrows(IOException.class, () -> pg.sql("SELEC 1"));
      assertTrue(bad.getMessage().contains("syntax error"), bad.getMessage());
    } finally {
      pg.close();
    }
    assertThrows(IOException.class, () -> new Socket("127.0.0.1", port).close(), "stopped: nothing listens");
    assertTrue(java.nio.file.Files.notExists(folder), "its folder is deleted");
  }
}
