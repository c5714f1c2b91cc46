package io.github.rdmacounters.diagnosis;

import java.util.List;

/**
 * Whether a kind of counter works on a port.
 *
 * @param answer {@code yes}, {@code no}, or {@code unknown} when the facts do not tell
 * (run with {@code --probe})
 * @param text the verdict as one line, e.g.
 * {@code flow counters: no, because the process lacks CAP_NET_RAW}
 * @param because the reasons of a {@code no} or {@code unknown}, empty for {@code yes}
 * @param notes what else to know about a {@code yes}, e.g. that RoCE traffic is not seen
 * @since 0.1.0
 */
public record Verdict(String answer, String text, List<String> because, List<String> notes) {

	/** The answer when the kind of counter works. */
	public static final String YES = "yes";

	/** The answer when it does not. */
	public static final String NO = "no";

	/** The answer when the facts gathered cannot tell. */
	public static final String UNKNOWN = "unknown";

	public Verdict {
		because = List.copyOf(because);
		notes = List.copyOf(notes);
	}

	static Verdict of(String kind, String answer, List<String> because, List<String> notes) {
		StringBuilder text = new StringBuilder(kind).append(": ").append(answer);
		if (!because.isEmpty()) {
			text.append(", because ").append(String.join("; ", because));
		}
		if (!notes.isEmpty()) {
			text.append(" (").append(String.join("; ", notes)).append(')');
		}
		return new Verdict(answer, text.toString(), because, notes);
	}

	/**
	 * Return whether the answer is {@code yes}; not a bean property, so a record
	 * serializer leaves it out.
	 * @return whether it works
	 */
	public boolean answersYes() {
		return YES.equals(this.answer);
	}

}
