/** {@code __share_group_state}: ShareSnapshot (type 0) and ShareUpdate (type 1) (docs/format.md 2.10). */
package io.segscope.format.coordinator.share;
