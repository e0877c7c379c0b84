package io.interpreter4j.cli.render.inline;

/** The ways a terminal can be sent a picture. */
public enum ImageProtocol { KITTY, ITERM2, SIXEL }
