package io.github.rdmacounters.autoconfigure;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;

/**
 * The failure analysis of an invalid {@code rdma} property, worded as Boot's own, with
 * the property and the value as written.
 *
 * @author rdma-counters
 */
final class Analyses {

	static final String REVIEW = "Review the value of the property with the provided reason.";

	/** A placeholder left as written: Boot's binder keeps one that nothing resolves. */
	private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}:]+)}");

	private Analyses() {
	}

	/**
	 * An analysis of an invalid value.
	 * @param property the property as found in the environment, for its origin
	 * @param name the property as written
	 * @param value the value as written
	 * @param reason what is wrong and what is allowed
	 * @param cause the failure
	 * @return the analysis
	 */
	static FailureAnalysis invalidValue(@Nullable ConfigurationProperty property, String name, @Nullable Object value,
			String reason, Throwable cause) {
		Object written = YamlNumberForms.asWritten(property, value);
		Origin origin = (property != null) ? property.getOrigin() : null;
		if (origin instanceof PropertySourceOrigin source && source.getOrigin() != null) {
			origin = source.getOrigin();
		}
		return new FailureAnalysis(
				"Invalid value '" + ((written != null) ? written : "") + "' for configuration property '" + name + "'"
						+ ((origin != null) ? " (originating from '" + origin + "')" : "")
						+ ". Validation failed for the following reason:\n\n" + reason + unresolved(written),
				REVIEW, cause);
	}

	/**
	 * Say that a value holds a placeholder that nothing resolved, e.g. {@code ${PORT}}
	 * where no property or environment variable {@code PORT} exists.
	 */
	private static String unresolved(@Nullable Object written) {
		Matcher placeholder = PLACEHOLDER.matcher((written != null) ? written.toString() : "");
		if (!placeholder.find()) {
			return "";
		}
		String key = placeholder.group(1);
		return "; " + placeholder.group() + " is a placeholder that no property and no environment variable "
				+ "resolved: define " + key + ", give it a default (${" + key + ":<value>}), or write the value itself";
	}

}
