/**
 * {@code segscope report}'s page: {@code ReportModel} (the figures {@code ReportCommand} gathers from
 * the engines), {@code ReportPage} (the HTML, inline SVG drawn here; with {@code MapSection} and
 * {@code GroupsSection}, and {@code Fmt} for numbers, sizes and times), {@code PageScript} (its one
 * style sheet and script), {@code Html} (the one escaping helper), {@code ReportFile} (the atomic
 * write).
 */
package io.segscope.inspector.report;
