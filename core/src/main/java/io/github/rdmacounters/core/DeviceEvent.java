package io.github.rdmacounters.core;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An asynchronous event of an RDMA device ({@code struct ibv_async_event}, read with
 * {@code ibv_get_async_event}).
 *
 * @param device the device name, e.g. {@code mlx5_0}
 * @param port the port number for a port event, 0 for {@link Type#DEVICE_FATAL}
 * @param type what happened
 * @param time when the event was read
 * @since 0.1.0
 */
public record DeviceEvent(String device, int port, Type type, Instant time) {

	public DeviceEvent {
		Objects.requireNonNull(device, "device");
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(time, "time");
	}

	@Override
	public String toString() {
		return type.verbsName() + " on " + this.device + ((this.port != 0) ? " port " + this.port : "");
	}

	/**
	 * The events reported ({@code enum ibv_event_type}); queue pair, completion queue and
	 * shared receive queue events are acknowledged only.
	 */
	public enum Type {

		/** The device is unusable until reopened. */
		DEVICE_FATAL(8, false),

		/** The port became ACTIVE. */
		PORT_ACTIVE(9, true),

		/** The port left ACTIVE (link down). */
		PORT_ERR(10, true),

		/** The port's LID changed. */
		LID_CHANGE(11, true),

		/** The port's P_Key table changed. */
		PKEY_CHANGE(12, true),

		/** The port's subnet manager changed. */
		SM_CHANGE(13, true),

		/** The subnet manager asks clients to re-register. */
		CLIENT_REREGISTER(17, true),

		/** The port's GID table changed. */
		GID_CHANGE(18, true);

		private final int nativeValue;

		private final boolean portEvent;

		Type(int nativeValue, boolean portEvent) {
			this.nativeValue = nativeValue;
			this.portEvent = portEvent;
		}

		/** Return the value of {@code enum ibv_event_type}. */
		public int nativeValue() {
			return this.nativeValue;
		}

		/** Return whether the event names a port ({@code element.port_num}). */
		public boolean isPortEvent() {
			return this.portEvent;
		}

		/** Return the C name, e.g. {@code IBV_EVENT_PORT_ERR}. */
		public String verbsName() {
			return "IBV_EVENT_" + name();
		}

		/** Return the name used as a metric tag, e.g. {@code port_err}. */
		public String tagValue() {
			return name().toLowerCase(Locale.ROOT);
		}

		/**
		 * Map a native value.
		 * @param value the value of {@code enum ibv_event_type}
		 * @return the type, or {@code null} for an event not reported
		 */
		public static @Nullable Type of(int value) {
			for (Type type : values()) {
				if (type.nativeValue == value) {
					return type;
				}
			}
			return null;
		}

	}

}
