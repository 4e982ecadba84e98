/**
 * The {@code segscope} command line ({@link io.segscope.inspector.Segscope}, picocli): one class per
 * command in {@code cmd}, PATH resolution (files, partition dirs, log dirs, archives read in place)
 * in {@code input}, output formats in {@code output}. Commands are thin: they parse options, build
 * a pipeline from the {@code format} library and write to the writers they are given, so tests run
 * them in-process. Exit codes: 0 success, 1 findings, 2 usage error, 3 I/O error.
 */
package io.segscope.inspector;
