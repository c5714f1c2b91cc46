package io.github.rdmacounters.core;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Link state of a port as sysfs shows it, parsed once when the port is read; a component
 * is {@code null} when its file was unreadable or held a value the kernel does not print.
 *
 * @param state the logical state ({@code 4: ACTIVE})
 * @param physicalState the physical state ({@code 5: LinkUp})
 * @param rate the signalling rate ({@code 100 Gb/sec (4X EDR)})
 * @param linkLayer the link layer ({@code InfiniBand} or {@code Ethernet})
 * @since 0.1.0
 */
public record PortLink(@Nullable PortState state, @Nullable PhysicalPortState physicalState, @Nullable PortRate rate,
		@Nullable LinkLayer linkLayer) {

	/** A link of which nothing is known. */
	public static final PortLink UNKNOWN = new PortLink(null, null, null, null);

	public boolean isActive() {
		return this.state == PortState.ACTIVE;
	}

	/**
	 * Parse the trimmed texts of a port's {@code state}, {@code phys_state}, {@code rate}
	 * and {@code link_layer} files ({@code null} if unreadable). States are read from the
	 * number {@code state_show} and {@code phys_state_show} print ({@code "%d: %s"}), or
	 * from the name alone.
	 * @param state e.g. {@code 4: ACTIVE}
	 * @param physicalState e.g. {@code 5: LinkUp}
	 * @param rate e.g. {@code 100 Gb/sec (4X EDR)}
	 * @param linkLayer {@code InfiniBand} or {@code Ethernet}
	 * @return the link
	 */
	public static PortLink parse(@Nullable String state, @Nullable String physicalState, @Nullable String rate,
			@Nullable String linkLayer) {
		return new PortLink(parseState(state), parsePhysicalState(physicalState),
				(rate != null) ? PortRate.parse(rate) : null, parseLinkLayer(linkLayer));
	}

	private static @Nullable PortState parseState(@Nullable String text) {
		if (text == null) {
			return null;
		}
		Integer number = leadingNumber(text);
		if (number != null) {
			return (number >= 0 && number <= PortState.ACTIVE_DEFER.nativeValue()) ? PortState.of(number) : null;
		}
		String name = text.trim().toUpperCase(Locale.ROOT).replace(' ', '_');
		for (PortState candidate : PortState.values()) {
			if (candidate.name().equals(name)) {
				return candidate;
			}
		}
		return null;
	}

	private static @Nullable PhysicalPortState parsePhysicalState(@Nullable String text) {
		if (text == null) {
			return null;
		}
		Integer number = leadingNumber(text);
		return (number != null) ? PhysicalPortState.of(number) : PhysicalPortState.ofSysfsName(text.trim());
	}

	// As link_layer_show prints it
	private static @Nullable LinkLayer parseLinkLayer(@Nullable String text) {
		if (text == null) {
			return null;
		}
		return switch (text.trim()) {
			case "InfiniBand" -> LinkLayer.INFINIBAND;
			case "Ethernet" -> LinkLayer.ETHERNET;
			default -> null;
		};
	}

	private static @Nullable Integer leadingNumber(String text) {
		int colon = text.indexOf(':');
		if (colon <= 0) {
			return null;
		}
		String number = text.substring(0, colon).trim();
		if (number.isEmpty() || number.length() > 9 || !number.chars().allMatch((c) -> c >= '0' && c <= '9')) {
			return null;
		}
		return Integer.parseInt(number);
	}

}
