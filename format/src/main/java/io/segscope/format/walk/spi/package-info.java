/**
 * The service interface for decoders of user topics' keys and values
 * ({@link io.segscope.format.walk.spi.RecordDecoder}), and their loading
 * ({@link io.segscope.format.walk.spi.RecordDecoders}).
 */
package io.segscope.format.walk.spi;
