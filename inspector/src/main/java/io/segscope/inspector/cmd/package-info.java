/**
 * One class per subcommand: {@code dump}, {@code verify}, {@code locate}, {@code completion}; options
 * are documented in their annotations, so {@code --help} is the manual.
 */
package io.segscope.inspector.cmd;
