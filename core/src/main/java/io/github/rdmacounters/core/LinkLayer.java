package io.github.rdmacounters.core;

/**
 * Link layer of a port ({@code IBV_LINK_LAYER_*}).
 *
 * @since 0.1.0
 */
public enum LinkLayer {

	/**
	 * {@code IBV_LINK_LAYER_UNSPECIFIED}: reported by old providers, means InfiniBand.
	 */
	UNSPECIFIED(0),
	/** {@code IBV_LINK_LAYER_INFINIBAND}. */
	INFINIBAND(1),
	/** {@code IBV_LINK_LAYER_ETHERNET}: RoCE or iWARP. */
	ETHERNET(2);

	private final int nativeValue;

	LinkLayer(int nativeValue) {
		this.nativeValue = nativeValue;
	}

	/**
	 * Return the native value.
	 * @return the value of {@code IBV_LINK_LAYER_*}
	 */
	public int nativeValue() {
		return this.nativeValue;
	}

	/**
	 * Return the name the kernel prints in sysfs {@code link_layer}.
	 * @return {@code Ethernet} for {@link #ETHERNET}, otherwise {@code InfiniBand}
	 * ({@link #UNSPECIFIED} is what old providers report for InfiniBand)
	 */
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
