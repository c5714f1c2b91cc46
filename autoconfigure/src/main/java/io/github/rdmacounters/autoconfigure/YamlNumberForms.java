package io.github.rdmacounters.autoconfigure;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginTrackedValue;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.Resource;

/**
 * Finds numbers that YAML reads otherwise than they look. Boot's YAML loader is
 * SnakeYAML, which follows YAML 1.1 ({@code Resolver.INT}): a plain scalar with a leading
 * zero is octal ({@code destination-port: 04420} binds 2320), and one with colons is base
 * 60 ({@code read-cache-ttl: 1:30} binds 90). The number reaches the binder already
 * converted, so the text as written is read back at the value's origin, and only for the
 * integers of the starter's properties read from a text resource (a {@code .properties}
 * file holds strings, so those are YAML's).
 *
 * @author rdma-counters
 */
final class YamlNumberForms {

	/** YAML 1.1's binary, octal and base 60 integers ({@code Resolver.INT}). */
	private static final Pattern SURPRISING = Pattern.compile("[-+]?(0b[0-1_]+|0[0-7_]+|[1-9][0-9_]*(:[0-5]?[0-9])+)");

	/** YAML 1.1's booleans other than true and false ({@code Resolver.BOOL}). */
	private static final Pattern WORD_BOOLEAN = Pattern.compile("(?i)y|n|yes|no|on|off");

	private YamlNumberForms() {
	}

	/**
	 * Add a problem for each integer of a YAML file written in YAML 1.1's octal or base
	 * 60 form.
	 * @param written the properties as written
	 * @param problems where the problems go
	 */
	static void check(List<ConfigurationProperty> written, Problems problems) {
		// each file read once, however many numbers it has
		Map<Resource, List<String>> files = new HashMap<>();
		for (ConfigurationProperty property : written) {
			Object value = property.getValue();
			if (value instanceof OriginTrackedValue tracked) {
				value = tracked.getValue();
			}
			if (value instanceof Double || value instanceof Float) {
				checkWhole(property, (Number) value, files, problems);
				continue;
			}
			if (value instanceof Boolean bool) {
				checkText(property, bool, files, problems);
				continue;
			}
			if (!(value instanceof Integer || value instanceof Long)) {
				continue;
			}
			String text = textAt(Origin.from(property), files);
			if (text != null && SURPRISING.matcher(text).matches()) {
				String form = text.contains(":") ? "a base 60 number (each ':' a factor of 60)"
						: text.matches("[-+]?0b.*") ? "a binary number" : "an octal number";
				problems.addAsWritten(property.getName().toString(), text, "YAML reads " + text + " as " + form + ", "
						+ value + "; write the number in decimal (or hex with 0x), or quote it");
			}
		}
	}

	/**
	 * Refuse a YAML 1.1 boolean word ({@code yes}, {@code on}, ...) for a property of
	 * text or a list of text, e.g. {@code device: yes}, which would bind as the text
	 * {@code true}.
	 */
	private static void checkText(ConfigurationProperty property, Boolean value, Map<Resource, List<String>> files,
			Problems problems) {
		ResolvableType type = RdmaPropertyKeys.typeOf(property.getName());
		if (type == null || !isText(type)) {
			return;
		}
		String text = textAt(Origin.from(property), files);
		if (text != null && WORD_BOOLEAN.matcher(text).matches()) {
			problems.addAsWritten(Problems.written(property, property.getName()), text,
					"YAML reads " + text + " as the boolean " + value + ", which would bind as the text " + value
							+ "; quote it ('" + text + "') to mean the name");
		}
	}

	/**
	 * Whether a type is text or a collection of text, e.g. {@code rdma.ethtool.include},
	 * where {@code include: off} would bind as the one name {@code false}.
	 */
	private static boolean isText(ResolvableType type) {
		Class<?> raw = type.resolve(Object.class);
		return raw == String.class || (Collection.class.isAssignableFrom(raw)
				&& type.asCollection().getGeneric(0).resolve() == String.class);
	}

	/**
	 * Refuse a YAML decimal number ({@code destination-port: 4791.5}) for a whole-number
	 * property: Spring's {@code NumberUtils} converts a {@code Double} to an
	 * {@code Integer} by cutting the fraction, where the same text in a
	 * {@code .properties} file is refused.
	 */
	private static void checkWhole(ConfigurationProperty property, Number value, Map<Resource, List<String>> files,
			Problems problems) {
		if (!RdmaPropertyKeys.isWholeNumber(property.getName())) {
			return;
		}
		String text = textAt(Origin.from(property), files);
		String written = (text != null) ? text : String.valueOf(value);
		String rule = RdmaBindFailureAnalyzer.rule(property.getName());
		problems.addAsWritten(Problems.written(property, property.getName()), written,
				"must be a whole number" + ((rule != null) ? " (it " + rule + ")" : "") + ": YAML reads " + written
						+ " as a decimal number, of which Boot would keep only " + value.longValue());
	}

	/**
	 * Return a property's value as written: a number or a boolean read from a YAML file
	 * as its text there ({@code 04420}, not 2320; {@code yes}, not true), any other value
	 * as it is.
	 * @param property the property, if found
	 * @param value its value
	 * @return the value as written
	 */
	static @Nullable Object asWritten(@Nullable ConfigurationProperty property, @Nullable Object value) {
		if (property == null || !(value instanceof Number || value instanceof Boolean)) {
			return value;
		}
		String text = textAt(Origin.from(property));
		return (text != null) ? text : value;
	}

	/**
	 * Return the plain scalar at a value's origin, or {@code null} when the origin is not
	 * a line and column of a resource that can be read.
	 */
	static @Nullable String textAt(@Nullable Origin origin) {
		return textAt(origin, new HashMap<>());
	}

	private static @Nullable String textAt(@Nullable Origin origin, Map<Resource, List<String>> files) {
		// a property source's origin wraps the one its lookup gives, the file's
		Origin found = origin;
		while (found instanceof PropertySourceOrigin source && source.getOrigin() != null) {
			found = source.getOrigin();
		}
		if (!(found instanceof TextResourceOrigin text) || text.getLocation() == null || text.getResource() == null) {
			return null;
		}
		List<String> lines = files.computeIfAbsent(text.getResource(), YamlNumberForms::lines);
		int line = text.getLocation().getLine();
		int column = text.getLocation().getColumn();
		if (line >= lines.size() || column >= lines.get(line).length()) {
			return null;
		}
		String current = lines.get(line);
		int end = column;
		while (end < current.length() && " \t#,]}".indexOf(current.charAt(end)) < 0) {
			end++;
		}
		return current.substring(column, end);
	}

	/** The lines of a resource, none when it cannot be read. */
	private static List<String> lines(Resource resource) {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(resource.getInputStream(), StandardCharsets.UTF_8))) {
			return reader.lines().toList();
		}
		catch (IOException | RuntimeException ex) {
			return List.of();
		}
	}

}
