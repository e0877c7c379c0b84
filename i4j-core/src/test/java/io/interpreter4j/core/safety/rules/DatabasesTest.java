package io.interpreter4j.core.safety.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatabasesTest {

  @Test
  void statementsThatDeleteData() {
    assertEquals("DROP TABLE", Databases.destructiveStatement("drop\n  TABLE IF EXISTS x;"));
    assertEquals("TRUNCATE", Databases.destructiveStatement("TRUNCATE users, orders CASCADE"));
    assertEquals("DELETE FROM", Databases.destructiveStatement("DELETE FROM customers WHERE id < 3"));
    assertEquals("ALTER TABLE ... DROP", Databases.destructiveStatement("alter table t drop column c"));
    assertEquals("UPDATE without WHERE", Databases.destructiveStatement("UPDATE users SET admin = true"));
    assertNull(Databases.destructiveStatement("SELECT * FROM deleted_from_archive"));
    assertNull(Databases.destructiveStatement("UPDATE users SET a = 1 WHERE id = 2"));
    assertNull(Databases.destructiveStatement("INSERT INTO t VALUES (1)"));
  }

  @Test
  void cacheAndDocumentCommands() {
    assertEquals("FLUSHALL", Databases.redisDestructive("flushall"));
    assertEquals("DEL", Databases.redisDestructive("DEL session:1"));
    assertNull(Databases.redisDestructive("GET k"));
    assertNull(Databases.redisDestructive("CONFIG GET maxmemory"));
    assertEquals("deletemany", Databases.mongoDestructive("db.orders.deleteMany({})"));
    assertNull(Databases.mongoDestructive("db.orders.find({})"));
  }

  @Test
  void hosts() {
    assertEquals("db.prod.example.com", Databases.hostOfUrl("postgres://u:p@db.prod.example.com:5432/app"));
    assertEquals("cluster0.ab.mongodb.net", Databases.hostOfUrl("mongodb+srv://a:b@cluster0.ab.mongodb.net/shop"));
    assertEquals("cache", Databases.hostOfUrl("redis://cache:6379"));
    assertNull(Databases.hostOfUrl("data/app.db"));
    assertTrue(Databases.isLocalHost("127.0.0.1"));
    assertTrue(Databases.isLocalHost("localhost"));
    assertTrue(Databases.isLocalHost("/var/run/postgresql"));
    assertFalse(Databases.isLocalHost("10.0.0.5"));
  }
}
