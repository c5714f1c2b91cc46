package io.github.rdmacounters.core;

/**
 * Link layer of a port ({@code IBV_LINK_LAYER_*}).
 *
 * @since 0.1.0
 */
public enum LinkLayer {

	/** Reported by old providers for InfiniBand. */
	UNSPECIFIED(0), INFINIBAND(1),
	/** RoCE or iWARP. */
	ETHERNET(2);

	private final int nativeValue;

	LinkLayer(int nativeValue) {
		this.nativeValue = nativeValue;
	}

	public int nativeValue() {
		return this.nativeValue;
	}

	/** Return the name the kernel prints in sysfs {@code link_layer}. */
	public String sysfsName() {
		return (this == ETHERNET) ? "Ethernet" : "InfiniBand";
	}

	/**
	 * Map a native value; unknown values map to {@link #UNSPECIFIED}.
	 * @param value the native value
	 * @return the link layer
	 */
	public static LinkLayer of(int value) {
		for (LinkLayer layer : values()) {
			if (layer.nativeValue == value) {
				return layer;
			}
		}
		return UNSPECIFIED;
	}

}
