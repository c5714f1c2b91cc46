package io.github.rdmacounters.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

/**
 * A filter of names (devices such as {@code mlx5_0}, counters such as
 * {@code port_rcv_data}) built from include and exclude lists, in the manner of
 * node_exporter's device include/exclude flags. Entries are exact names or globs where
 * {@code *} matches any run of characters and {@code ?} one character ({@code mlx5_*},
 * {@code port_*_errors}); matching is case-sensitive and blank entries are ignored. A
 * name passes if the include list is empty or one include entry matches it, and no
 * exclude entry matches it: exclude wins.
 *
 * @author rdma-counters
 * @since 0.1.0
 */
public final class NameFilter implements Predicate<String> {

	/**
	 * An entry that can match a name: letters, digits, '_' and the wildcards; other
	 * characters are in no device or counter name.
	 */
	private static final Pattern ENTRY = Pattern.compile("[A-Za-z0-9_*?]+");

	/**
	 * An entry that can match a driver statistic's name, which may also hold '-'; no '.',
	 * so that a regular expression such as {@code rx_prio.*_bytes} is refused, not taken
	 * as a glob that matches nothing ('?' matches the dot of a name that has one).
	 */
	private static final Pattern STATISTIC_ENTRY = Pattern.compile("[A-Za-z0-9_*?-]+");

	private static final NameFilter ALL = new NameFilter(List.of(), List.of(), List.of());

	private final List<Pattern> includes;

	private final List<Pattern> excludes;

	private final List<String> description;

	private NameFilter(List<Pattern> includes, List<Pattern> excludes, List<String> description) {
		this.includes = includes;
		this.excludes = excludes;
		this.description = description;
	}

	/**
	 * Return a filter that lets every name pass.
	 * @return the filter
	 */
	public static NameFilter all() {
		return ALL;
	}

	/**
	 * Build a filter from include and exclude lists.
	 * @param include the names or globs to include; empty for all
	 * @param exclude the names or globs to exclude
	 * @return the filter
	 */
	public static NameFilter of(List<String> include, List<String> exclude) {
		return new NameFilter(globs(include), globs(exclude), List.of("include=" + include, "exclude=" + exclude));
	}

	/**
	 * Return the entries of an include or exclude list that can match no name.
	 * @param entries the list
	 * @param property the list's property, e.g. {@code rdma.port-counters.include}
	 * @param what what the entries name, e.g. {@code an RDMA device name}
	 * @param example an entry to show, e.g. {@code mlx5_*}
	 * @return a problem per such entry, its property indexed, e.g.
	 * {@code rdma.port-counters.include[1]}
	 */
	public static List<Problem> problems(List<String> entries, String property, String what, String example) {
		return problems(entries, property, what, example, ENTRY, "letters, digits, '_'");
	}

	/**
	 * Return the entries of an include or exclude list of driver statistics
	 * ({@code ethtool -S} names) that can match no name: the same globs as
	 * {@link #problems(List, String, String, String)}, which may also hold '-'; a
	 * character class or a regular expression is refused rather than taken literally.
	 * @param entries the list
	 * @param property the list's property, e.g. {@code rdma.ethtool.include}
	 * @return a problem per such entry, its property indexed
	 */
	public static List<Problem> statisticProblems(List<String> entries, String property) {
		return problems(entries, property, "a driver statistic as ethtool -S names it", "rx_prio*_pause",
				STATISTIC_ENTRY, "letters, digits, '_', '-'");
	}

	/**
	 * Return the positions of the entries that match none of the names: each is a typo,
	 * or leaves out nothing it was meant to. Blank entries, which {@link #problems}
	 * reports, are passed over.
	 * @param entries the names or globs as written, e.g. an include list
	 * @param names the names that exist
	 * @return the positions in {@code entries}, in order
	 */
	public static List<Integer> unmatched(List<String> entries, Collection<String> names) {
		List<Integer> unmatched = new ArrayList<>();
		for (int i = 0; i < entries.size(); i++) {
			String entry = entries.get(i);
			if (entry != null && !entry.isBlank() && names.stream().noneMatch(of(List.of(entry), List.of()))) {
				unmatched.add(i);
			}
		}
		return unmatched;
	}

	/**
	 * Return the names closest to an entry that matches none of them, for a message that
	 * says what exists: fewest edits first (a glob's {@code *} and {@code ?} count as
	 * characters), then by name.
	 * @param entry the name or glob as written
	 * @param names the names that exist
	 * @param limit how many to return at most
	 * @return the closest names, at most {@code limit}
	 */
	public static List<String> closest(String entry, Collection<String> names, int limit) {
		String written = entry.trim();
		String lower = written.toLowerCase(Locale.ROOT);
		// a name in the wrong case first (PORT_RCV_DATA for port_rcv_data), then by edits
		return names.stream()
			.distinct()
			.sorted(Comparator.comparingInt((String name) -> distance(lower, name.toLowerCase(Locale.ROOT)))
				.thenComparingInt((String name) -> distance(written, name))
				.thenComparing(Comparator.naturalOrder()))
			.limit(limit)
			.toList();
	}

	/**
	 * Return Levenshtein's edit distance between two names, as the did-you-mean of names
	 * and property keys counts it.
	 * @param a one name
	 * @param b the other
	 * @return the fewest single-character insertions, deletions and substitutions
	 */
	public static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		Arrays.setAll(previous, (j) -> j);
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

	private static List<Problem> problems(List<String> entries, String property, String what, String example,
			Pattern valid, String characters) {
		List<Problem> problems = new ArrayList<>();
		for (int i = 0; i < entries.size(); i++) {
			String entry = entries.get(i);
			if ((entry == null || entry.isBlank()) && entries.size() > 1) {
				// a list of one blank entry, as an empty environment variable gives, is
				// none
				problems.add(new Problem(property + "[" + i + "]", (entry != null) ? entry : "",
						"must be " + what + " or a glob such as " + example + ", not blank: remove the extra ','"));
			}
			else if (entry != null && !entry.isBlank() && !valid.matcher(entry.trim()).matches()) {
				problems.add(new Problem(property + "[" + i + "]", entry,
						"must be " + what + " or a glob of " + characters
								+ ", '*' (any run) and '?' (one character), e.g. " + example
								+ "; character classes and regular expressions are not globs, and this one can "
								+ "match nothing"));
			}
		}
		return problems;
	}

	private static List<Pattern> globs(List<String> entries) {
		List<Pattern> patterns = new ArrayList<>();
		for (String entry : entries) {
			if (entry == null || entry.isBlank()) {
				continue;
			}
			StringBuilder regex = new StringBuilder();
			StringBuilder literal = new StringBuilder();
			for (char c : entry.trim().toCharArray()) {
				if (c == '*' || c == '?') {
					if (literal.length() > 0) {
						regex.append(Pattern.quote(literal.toString()));
						literal.setLength(0);
					}
					regex.append((c == '*') ? ".*" : ".");
				}
				else {
					literal.append(c);
				}
			}
			if (literal.length() > 0) {
				regex.append(Pattern.quote(literal.toString()));
			}
			patterns.add(Pattern.compile(regex.toString()));
		}
		return List.copyOf(patterns);
	}

	@Override
	public boolean test(String name) {
		return (this.includes.isEmpty() || matchesAny(this.includes, name)) && !matchesAny(this.excludes, name);
	}

	private static boolean matchesAny(List<Pattern> patterns, String name) {
		for (Pattern pattern : patterns) {
			if (pattern.matcher(name).matches()) {
				return true;
			}
		}
		return false;
	}

	@Override
	public String toString() {
		return this.description.isEmpty() ? "NameFilter all" : "NameFilter " + String.join(" ", this.description);
	}

}
