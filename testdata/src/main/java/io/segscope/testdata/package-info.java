/**
 * Locates the committed test data on disk ({@link io.segscope.testdata.Corpus}): the real-broker
 * corpus ({@code testdata/corpus/}), the synthetic segments ({@code testdata/synthetic/}), the
 * corruption catalogue ({@code testdata/corrupt/}) and the vendored Kafka schemas
 * ({@code testdata/schemas/}).
 */
package io.segscope.testdata;
