/**
 * The one error type of segscope's readers: {@link io.segscope.format.error.FormatException}, built
 * through {@code FormatException.at(violation, file, position)} so that every message names the
 * file, byte position, base offset, field, expected and actual value, and
 * {@link io.segscope.format.error.Violation}, whose {@code kind()} names are stable (they are the
 * kinds {@code segscope verify} prints). Unknown record types and versions are not errors: they are
 * values of the decoders ({@code Unknown} results).
 */
package io.segscope.format.error;
