package io.segscope.format.verify;

/** Receives findings as {@link Verifier} makes them (in file order per partition). */
@FunctionalInterface
public interface FindingSink {
    void accept(Finding finding);
}
