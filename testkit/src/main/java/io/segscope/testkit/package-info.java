/**
 * Test support shared by the modules' property tests: {@link io.segscope.testkit.Gen} (seeded
 * generators over {@link java.util.SplittableRandom}), {@link io.segscope.testkit.Tries} (one JUnit 5
 * dynamic test per seed, named with its seed, and {@code -Dsegscope.seed=<seed>} to rerun one) and
 * {@link io.segscope.testkit.Minimiser} (shrinks a failing byte input while the failure persists).
 */
package io.segscope.testkit;
