package io.github.rdmacounters.netlink;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An event of RDMA netlink's monitor ({@code RDMA_NLDEV_CMD_MONITOR}, multicast to the
 * {@code RDMA_NL_GROUP_NOTIFY} group by {@code rdma_nl_notify_event} in
 * {@code drivers/infiniband/core/nldev.c}). Which attributes an event carries depends on
 * its type: a device event names the device ({@code fill_nldev_handle}), a netdev attach
 * or detach names the device, the port and, when attached, the netdev
 * ({@code fill_mon_netdev_association}), a netdev rename names the netdev only
 * ({@code fill_mon_netdev_rename}).
 *
 * @param type what happened
 * @param deviceIndex the kernel index of the device, or {@code null} if not given
 * @param deviceName the device name (the new one for a rename), or {@code null}
 * @param port the port of a netdev event, or 0
 * @param netdevIndex the interface index of the netdev, or {@code null}
 * @param netdevName the netdev name, or {@code null}
 * @param time when the event was read
 * @author rdma-counters
 * @since 0.1.0
 */
public record NldevMonitorEvent(Type type, @Nullable Long deviceIndex, @Nullable String deviceName, int port,
		@Nullable Long netdevIndex, @Nullable String netdevName, Instant time) {

	public NldevMonitorEvent {
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(time, "time");
	}

	@Override
	public String toString() {
		StringBuilder text = new StringBuilder(this.type.kernelName());
		if (this.deviceName != null || this.deviceIndex != null) {
			text.append(" of RDMA device ").append((this.deviceName != null) ? this.deviceName : "?");
			if (this.deviceIndex != null) {
				text.append(" (kernel index ").append(this.deviceIndex).append(')');
			}
		}
		if (this.port != 0) {
			text.append(" port ").append(this.port);
		}
		if (this.netdevName != null || this.netdevIndex != null) {
			text.append(" netdev ").append((this.netdevName != null) ? this.netdevName : "?");
			if (this.netdevIndex != null) {
				text.append(" (ifindex ").append(this.netdevIndex).append(')');
			}
		}
		return text.toString();
	}

	/**
	 * The event types ({@code enum rdma_nl_notify_event_type},
	 * {@code include/uapi/rdma/rdma_netlink.h}).
	 */
	public enum Type {

		/** A device was registered ({@code ib_register_device}); Linux 6.12. */
		REGISTER(0),

		/**
		 * A device is being unregistered ({@code __ib_unregister_device}); Linux 6.12.
		 */
		UNREGISTER(1),

		/** A netdev was attached to a port ({@code ib_device_set_netdev}); Linux 6.12. */
		NETDEV_ATTACH(2),

		/** A port's netdev was detached ({@code ib_device_set_netdev}); Linux 6.12. */
		NETDEV_DETACH(3),

		/** A device was renamed ({@code ib_device_rename}); Linux 6.13. */
		RENAME(4),

		/** A port's netdev was renamed ({@code ib_netdevice_event}); Linux 6.13. */
		NETDEV_RENAME(5);

		private final int nativeValue;

		Type(int nativeValue) {
			this.nativeValue = nativeValue;
		}

		/**
		 * Return the value of {@code enum rdma_nl_notify_event_type}.
		 * @return the value
		 */
		public int nativeValue() {
			return this.nativeValue;
		}

		/**
		 * Return the kernel's name, e.g. {@code RDMA_REGISTER_EVENT}.
		 * @return the name
		 */
		public String kernelName() {
			return "RDMA_" + name() + "_EVENT";
		}

		/**
		 * Return the name as a tag value, e.g. {@code netdev_attach}.
		 * @return the name
		 */
		public String tagValue() {
			return name().toLowerCase(Locale.ROOT);
		}

		/**
		 * Map a native value.
		 * @param value the value of {@code RDMA_NLDEV_ATTR_EVENT_TYPE}
		 * @return the type, or {@code null} for one this library does not know
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
