package io.interpreter4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public API names no type of interpreter4j's other modules (runtime, providers, server, core, ...): every public
 * or protected signature of every public type of {@code io.interpreter4j.api} is checked, generics included.
 */
class PublicApiTest {

  @Test
  void noPublicSignatureNamesAnInternalType() throws Exception {
    List<Class<?>> types = publicTypes();
    assertTrue(types.contains(Interpreter.class) && types.contains(Event.Output.class), types.toString());
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : types) {
      check(type.getName() + " extends", type.getGenericSuperclass(), leaks);
      for (Type i : type.getGenericInterfaces()) {
        check(type.getName() + " implements", i, leaks);
      }
      for (Constructor<?> c : type.getDeclaredConstructors()) {
        if (exposed(c)) {
          checkExecutable(type.getName() + ".<init>", c, leaks);
        }
      }
      for (Method m : type.getDeclaredMethods()) {
        if (exposed(m) && !m.isSynthetic()) {
          check(type.getName() + "." + m.getName() + " returns", m.getGenericReturnType(), leaks);
          checkExecutable(type.getName() + "." + m.getName(), m, leaks);
        }
      }
      for (Field f : type.getDeclaredFields()) {
        if (exposed(f) && !f.isSynthetic()) {
          check(type.getName() + "." + f.getName(), f.getGenericType(), leaks);
        }
      }
      if (type.isRecord()) {
        for (RecordComponent rc : type.getRecordComponents()) {
          check(type.getName() + "." + rc.getName(), rc.getGenericType(), leaks);
        }
      }
    }
    assertEquals(List.of(), leaks, "public signatures of io.interpreter4j.api name internal types");
  }

  @Test
  void theCheckFindsALeak() {
    List<String> leaks = new ArrayList<>();
    check("example", io.interpreter4j.runtime.session.Session.class, leaks);
    assertEquals(List.of("example: io.interpreter4j.runtime.session.Session"), leaks);
  }

  private static boolean exposed(Member m) {
    return Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers());
  }

  private static void checkExecutable(String where, Executable e, List<String> leaks) {
    for (Type p : e.getGenericParameterTypes()) {
      check(where + " takes", p, leaks);
    }
    for (Type x : e.getGenericExceptionTypes()) {
      check(where + " throws", x, leaks);
    }
  }

  private static void check(String where, Type type, List<String> leaks) {
    if (type == null) {
      return;
    }
    if (type instanceof Class<?> c) {
      Class<?> base = c;
      while (base.isArray()) {
        base = base.getComponentType();
      }
      String name = base.getName();
      if (name.startsWith("io.interpreter4j.") && !name.startsWith("io.interpreter4j.api.")) {
        leaks.add(where + ": " + name);
      }
    } else if (type instanceof ParameterizedType p) {
      check(where, p.getRawType(), leaks);
      for (Type a : p.getActualTypeArguments()) {
        check(where, a, leaks);
      }
    } else if (type instanceof WildcardType w) {
      Stream.concat(Stream.of(w.getUpperBounds()), Stream.of(w.getLowerBounds())).forEach(b -> check(where, b, leaks));
    } else if (type instanceof GenericArrayType g) {
      check(where, g.getGenericComponentType(), leaks);
    } else if (type instanceof TypeVariable<?> v) {
      for (Type b : v.getBounds()) {
        check(where, b, leaks);
      }
    }
  }

  /** The public types of the package, nested ones included, from the compiled classes. */
  private static List<Class<?>> publicTypes() throws IOException, URISyntaxException, ClassNotFoundException {
    Path dir = Path.of(Interpreter.class.getResource("Interpreter.class").toURI()).getParent();
    TreeSet<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".class"))
          .forEach(n -> names.add(n.substring(0, n.length() - ".class".length())));
    }
    List<Class<?>> types = new ArrayList<>();
    for (String n : names) {
      Class<?> c = Class.forName("io.interpreter4j.api." + n);
      if (Modifier.isPublic(c.getModifiers()) && visible(c)) {
        types.add(c);
      }
    }
    return types;
  }

  /** Public, and so are the types it is nested in. */
  private static boolean visible(Class<?> c) {
    for (Class<?> t = c; t != null; t = t.getDeclaringClass()) {
      if (!Modifier.isPublic(t.getModifiers())) {
        return false;
      }
    }
    return true;
  }
}
