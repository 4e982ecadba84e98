/**
 * PATH resolution: {@link io.segscope.inspector.input.Inputs} turns files, partition dirs, broker
 * log dirs and archives ({@link io.segscope.inspector.input.ArchiveTree}: tar, compressed tars and
 * zip through commons-compress, nothing extracted) into the library's
 * {@link io.segscope.format.logdir.LogFile}s in topic, partition and base-offset order, through
 * its {@link io.segscope.format.logdir.LogScanner}.
 */
package io.segscope.inspector.input;
