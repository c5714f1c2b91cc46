package io.github.rdmacounters.diagnosis;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Writes a {@link DiagnosisReport} as JSON: each record an object of its components in
 * declaration order (the names Jackson gives records too), lists as arrays, maps as
 * objects, {@code null} as {@code null}; indented by two spaces.
 */
public final class ReportJson {

	private ReportJson() {
	}

	/**
	 * Write a report.
	 * @param report the report
	 * @return the JSON text, ending with a line break
	 */
	public static String write(DiagnosisReport report) {
		StringBuilder json = new StringBuilder();
		value(json, report, 0);
		return json.append('\n').toString();
	}

	private static void value(StringBuilder json, @Nullable Object value, int depth) {
		if (value == null) {
			json.append("null");
		}
		else if (value instanceof String text) {
			string(json, text);
		}
		else if (value instanceof Number || value instanceof Boolean) {
			json.append(value);
		}
		else if (value instanceof Record record) {
			RecordComponent[] components = record.getClass().getRecordComponents();
			json.append('{');
			for (int i = 0; i < components.length; i++) {
				json.append((i > 0) ? "," : "");
				indent(json, depth + 1);
				string(json, components[i].getName());
				json.append(": ");
				value(json, component(record, components[i]), depth + 1);
			}
			close(json, components.length, depth, '}');
		}
		else if (value instanceof Map<?, ?> map) {
			json.append('{');
			int i = 0;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				json.append((i++ > 0) ? "," : "");
				indent(json, depth + 1);
				string(json, String.valueOf(entry.getKey()));
				json.append(": ");
				value(json, entry.getValue(), depth + 1);
			}
			close(json, map.size(), depth, '}');
		}
		else if (value instanceof Collection<?> collection) {
			json.append('[');
			Iterator<?> iterator = collection.iterator();
			for (int i = 0; iterator.hasNext(); i++) {
				json.append((i > 0) ? "," : "");
				indent(json, depth + 1);
				value(json, iterator.next(), depth + 1);
			}
			close(json, collection.size(), depth, ']');
		}
		else {
			string(json, value.toString());
		}
	}

	private static @Nullable Object component(Record record, RecordComponent component) {
		try {
			return component.getAccessor().invoke(record);
		}
		catch (IllegalAccessException | InvocationTargetException ex) {
			throw new IllegalStateException("Cannot read " + component, ex);
		}
	}

	private static void close(StringBuilder json, int size, int depth, char bracket) {
		if (size > 0) {
			indent(json, depth);
		}
		json.append(bracket);
	}

	private static void indent(StringBuilder json, int depth) {
		json.append('\n').append("  ".repeat(depth));
	}

	private static void string(StringBuilder json, String text) {
		json.append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> json.append("\\\"");
				case '\\' -> json.append("\\\\");
				case '\n' -> json.append("\\n");
				case '\r' -> json.append("\\r");
				case '\t' -> json.append("\\t");
				default -> {
					if (c < 0x20) {
						json.append(String.format("\\u%04x", (int) c));
					}
					else {
						json.append(c);
					}
				}
			}
		}
		json.append('"');
	}

}
