/** {@code __transaction_state}: TransactionLogKey/Value v0-v1 and the transaction state names (docs/format.md 2.11). */
package io.segscope.format.coordinator.txn;
