package io.interpreter4j.cli;

/** Entry point of the {@code i4j} command. */
public final class Main {
  public static void main(String[] args) {
    System.out.println("interpreter4j");
  }
}
