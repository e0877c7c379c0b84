package io.interpreter4j.runtime.repl;

import io.interpreter4j.core.image.ImageHeader;
import io.interpreter4j.core.image.ImageSource;
import java.nio.file.Path;

/**
 * An image a block showed, already saved.
 *
 * @param path   absolute, under the session's {@code outputs/} folder
 * @param header its format and size, read from the file's header
 * @param source what showed it
 */
public record BlockImage(Path path, ImageHeader header, ImageSource source) {}
