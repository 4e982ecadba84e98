/**
 * PATH resolution: {@link io.segscope.inspector.input.Inputs} turns files, partition dirs, broker
 * log dirs and archives ({@link io.segscope.inspector.input.ArchiveTree}: tar, compressed tars and
 * zip through commons-compress, nothing extracted) into {@link io.segscope.inspector.input.Target}s
 * in topic, partition and base-offset order, using the {@code logdir} discovery of the library.
 */
package io.segscope.inspector.input;
