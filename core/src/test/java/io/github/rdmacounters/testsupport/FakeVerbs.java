package io.github.rdmacounters.testsupport;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceEvent;
import io.github.rdmacounters.core.LinkLayer;
import io.github.rdmacounters.core.MacAddress;
import io.github.rdmacounters.core.Packet;
import io.github.rdmacounters.core.PortState;
import io.github.rdmacounters.simulated.RoceOperation;
import io.github.rdmacounters.verbs.NativeBackend;

/**
 * The fake libibverbs of the tests: compiles {@code fake-ibverbs/fake_ibverbs.c} (a test
 * resource) with {@code gcc} against the installed {@code <infiniband/verbs.h>} (see
 * {@link NativeBuild}), loads it once per JVM, and drives it: devices and ports, packet
 * delivery, fault injection, misuse and live-object accounting. Point a
 * {@link NativeBackend} at {@link #libraryPath()} to test the binding against it.
 * <p>
 * The fake is process-wide state: call {@link #reset()} before each test and
 * {@link #assertClean()} after it.
 *
 * @author rdma-counters
 */
public final class FakeVerbs {

	private static final String SOURCE = "fake-ibverbs/fake_ibverbs.c";

	private static final int TEXT_SIZE = 4096;

	private static volatile @Nullable FakeVerbs instance;

	private final String libraryPath;

	private final Control control;

	private FakeVerbs(String libraryPath) {
		this.libraryPath = libraryPath;
		this.control = Native.load(libraryPath, Control.class);
	}

	/**
	 * Return the fake, compiling and loading it on first use.
	 * @return the fake
	 * @throws IllegalStateException if gcc or the libibverbs header is missing
	 */
	public static FakeVerbs get() {
		FakeVerbs current = instance;
		if (current == null) {
			synchronized (FakeVerbs.class) {
				current = instance;
				if (current == null) {
					current = new FakeVerbs(NativeBuild.sharedLibrary(SOURCE, "fakeibverbs").toString());
					instance = current;
				}
			}
		}
		return current;
	}

	/**
	 * Return the path of the compiled library, to give to {@link NativeBackend}.
	 * @return the absolute path
	 */
	public String libraryPath() {
		return this.libraryPath;
	}

	/**
	 * Return a backend that loads the fake.
	 * @return a new backend
	 */
	public NativeBackend backend() {
		return new NativeBackend(this.libraryPath);
	}

	/**
	 * Forget every device, fault, handle and misuse record; the kernel stack is present
	 * again.
	 */
	public void reset() {
		this.control.fake_reset();
	}

	/**
	 * Report every queue pair created, modified and destroyed from now on to a fake
	 * kernel's resource tracker, as the uverbs commands do.
	 * @param tracker a native function
	 * {@code void (const char *device, uint32_t lqpn, int
	 * type, int state, int port, int alive)}, or {@code null} to stop
	 */
	public void connectResourceTracker(com.sun.jna.@Nullable Pointer tracker) {
		this.control.fake_set_restrack(tracker);
	}

	/**
	 * Start describing a device; {@link DeviceBuilder#add()} adds it.
	 * @param name the device name, e.g. {@code mlx5_0}
	 * @return the builder: mlx5-like, one active Ethernet port, counters and flow
	 * steering
	 */
	public DeviceBuilder device(String name) {
		return new DeviceBuilder(name);
	}

	/**
	 * Change the logical state of a port.
	 * @param device the device name
	 * @param port the port number
	 * @param state the new state
	 */
	public void setPortState(String device, int port, PortState state) {
		setPort(device, port, state.nativeValue(), (state == PortState.ACTIVE) ? 5 : 3, -1, -1, -1, -1);
	}

	private void setPort(String device, int port, int state, int physState, int linkLayer, int mtu, int speed,
			int width) {
		if (this.control.fake_set_port(device, port, state, physState, linkLayer, mtu, speed, width) != 0) {
			throw new IllegalArgumentException("The fake has no device " + device + " with port " + port);
		}
	}

	/**
	 * Deliver a packet to a port: every flow on that port whose specs match counts it.
	 * @param device the device name
	 * @param port the port number
	 * @param packet the packet
	 * @return the number of flows that counted it
	 */
	public int deliver(String device, int port, Packet packet) {
		return deliver(device, port, FakePacket.of(packet));
	}

	/**
	 * Deliver a RoCE packet of the given operation to a port: on a RoCE-enabled port it
	 * moves the port counters and the operation's {@code hw_counters/} file, no flow.
	 * @param device the device name
	 * @param port the port number
	 * @param packet the packet: UDP to port 4791 (RoCEv2) or of Ethernet type 0x8915
	 * (RoCEv1)
	 * @param operation the RoCE operation
	 * @return the number of flows that counted it
	 */
	public int deliverRoce(String device, int port, Packet packet, RoceOperation operation) {
		FakePacket fakePacket = FakePacket.of(packet);
		fakePacket.roce_op = operation.ordinal();
		return deliver(device, port, fakePacket);
	}

	private int deliver(String device, int port, FakePacket packet) {
		int counted = this.control.fake_deliver(device, port, packet);
		if (counted < 0) {
			throw new IllegalArgumentException("The fake has no device " + device + " with port " + port);
		}
		return counted;
	}

	/**
	 * Turn RoCE on or off on a device, like mlx5's devlink {@code enable_roce}.
	 * @param device the device name
	 * @param enabled {@code false} to make RoCE traffic (UDP 4791, Ethernet type 0x8915)
	 * plain Ethernet traffic flows see
	 */
	public void roceEnabled(String device, boolean enabled) {
		if (this.control.fake_set_roce(device, enabled ? 1 : 0) != 0) {
			throw new IllegalArgumentException("The fake has no device " + device);
		}
	}

	/**
	 * Make a device behave like Linux before 5.8, where a don't-trap flow with a count
	 * action fails with {@code EINVAL}.
	 * @param device the device name
	 * @param on whether the kernel is older than 5.8
	 */
	public void linuxBefore58(String device, boolean on) {
		if (this.control.fake_set_linux_before_5_8(device, on ? 1 : 0) != 0) {
			throw new IllegalArgumentException("The fake has no device " + device);
		}
	}

	/**
	 * Read a port counter the fake keeps.
	 * @param device the device name
	 * @param port the port number
	 * @param file the path below {@code ports/<n>/}, e.g.
	 * {@code counters/port_rcv_packets} or {@code hw_counters/rx_write_requests}
	 * @return the value
	 */
	public long portCounter(String device, int port, String file) {
		long value = this.control.fake_port_counter(device, port, file);
		if (value < 0) {
			throw new IllegalArgumentException("The fake has no counter " + file + " on " + device + " port " + port);
		}
		return value;
	}

	/**
	 * Make the next call of a verb fail.
	 * @param verb the verb, e.g. {@code ibv_create_counters}
	 * @param errno the errno it fails with
	 */
	public void failNext(String verb, int errno) {
		fail(verb, errno, false);
	}

	/**
	 * Make every call of a verb fail until {@link #clearFaults()}.
	 * @param verb the verb, e.g. {@code ibv_read_counters}
	 * @param errno the errno it fails with
	 */
	public void failAlways(String verb, int errno) {
		fail(verb, errno, true);
	}

	private void fail(String verb, int errno, boolean always) {
		if (this.control.fake_fail(verb, errno, always ? 1 : 0) != 0) {
			throw new IllegalArgumentException("Too many faults or verb name too long: " + verb);
		}
	}

	/**
	 * Remove every injected fault.
	 */
	public void clearFaults() {
		this.control.fake_clear_faults();
	}

	/**
	 * Make {@code ibv_get_device_list} fail with {@code ENOSYS}, as on a host whose
	 * kernel has no RDMA stack.
	 * @param on whether the stack is missing
	 */
	public void noKernelStack(boolean on) {
		this.control.fake_no_kernel_stack(on ? 1 : 0);
	}

	/**
	 * Make the provider's {@code read_counters} accept an array shorter than the highest
	 * attached index + 1 (it fills what fits) instead of failing with {@code EINVAL} as
	 * mlx5 and the kernel do: a lax provider, to test that the binding never trusts the
	 * provider.
	 * @param on whether short reads succeed
	 */
	public void shortReads(boolean on) {
		this.control.fake_short_reads(on ? 1 : 0);
	}

	/**
	 * Return the number of native objects (device lists, contexts, PDs, CQs, QPs,
	 * counters, flows) created and not destroyed.
	 * @return the live objects
	 */
	public int liveObjects() {
		return this.control.fake_live_objects();
	}

	/**
	 * Describe the live objects, e.g. {@code context, counters}.
	 * @return the description, empty if none
	 */
	public String liveDescription() {
		byte[] text = new byte[TEXT_SIZE];
		this.control.fake_live_description(text, text.length);
		return Native.toString(text, StandardCharsets.US_ASCII);
	}

	/**
	 * Describe the live flows as the fake decoded them, e.g.
	 * {@code mlx5_0 port 1 priority 0 flags 0x2 specs eth,ipv4,udp,count}.
	 * @return one line per live flow, oldest first
	 */
	public List<String> flows() {
		List<String> flows = new ArrayList<>();
		byte[] text = new byte[TEXT_SIZE];
		while (this.control.fake_flow_describe(flows.size(), text, text.length) == 0) {
			flows.add(Native.toString(text, StandardCharsets.US_ASCII));
		}
		return flows;
	}

	/**
	 * Return the number of calls on destroyed or unknown handles and other misuse.
	 * @return the misuse count
	 */
	public int misuseCount() {
		return this.control.fake_misuse_count();
	}

	/**
	 * Return what each misuse was.
	 * @return the records, oldest first
	 */
	public List<String> misuseLog() {
		int count = Math.min(misuseCount(), 256);
		List<String> log = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			byte[] text = new byte[TEXT_SIZE];
			this.control.fake_misuse_entry(i, text, text.length);
			log.add(Native.toString(text, StandardCharsets.US_ASCII));
		}
		return log;
	}

	/**
	 * Fail if any misuse was recorded or any native object is alive.
	 * @throws AssertionError naming the misuse and the live objects
	 */
	public void assertClean() {
		int misuse = misuseCount();
		int live = liveObjects();
		if (misuse != 0 || live != 0) {
			throw new AssertionError("The fake libibverbs saw " + misuse + " misuse(s) " + misuseLog() + " and has "
					+ live + " live object(s) [" + liveDescription() + "]");
		}
	}

	/**
	 * Raise an asynchronous event on every open context of a device, as the kernel queues
	 * it on every file of the device: {@code ibv_get_async_event} then returns it.
	 * @param device the device name
	 * @param type the event
	 * @param port the port of a port event (ignored for
	 * {@link DeviceEvent.Type#DEVICE_FATAL})
	 * @return the number of open contexts it was queued on
	 */
	public int raiseAsyncEvent(String device, DeviceEvent.Type type, int port) {
		int queued = this.control.fake_raise_async_event(device, type.nativeValue(), port);
		if (queued < 0) {
			throw new IllegalArgumentException("The fake has no device " + device + " with port " + port);
		}
		return queued;
	}

	/**
	 * Take a port down the way the hardware does: its state becomes {@code DOWN}, then
	 * {@code IBV_EVENT_PORT_ERR} is raised.
	 * @param device the device name
	 * @param port the port number
	 */
	public void portDown(String device, int port) {
		setPortState(device, port, PortState.DOWN);
		raiseAsyncEvent(device, DeviceEvent.Type.PORT_ERR, port);
	}

	/**
	 * Bring a port up the way the hardware does: its state becomes {@code ACTIVE}, then
	 * {@code IBV_EVENT_PORT_ACTIVE} is raised.
	 * @param device the device name
	 * @param port the port number
	 */
	public void portUp(String device, int port) {
		setPortState(device, port, PortState.ACTIVE);
		raiseAsyncEvent(device, DeviceEvent.Type.PORT_ACTIVE, port);
	}

	/**
	 * Make a device go away (reset, driver reload, unplug): every open context gets
	 * {@code IBV_EVENT_DEVICE_FATAL} and is disassociated (queries and counter reads fail
	 * with {@code EIO}; destroys and close still succeed), and the device is no longer
	 * listed until {@link #restoreDevice(String)}.
	 * @param device the device name
	 * @return the number of open contexts that got the event
	 */
	public int removeDevice(String device) {
		int queued = this.control.fake_remove_device(device);
		if (queued < 0) {
			throw new IllegalArgumentException("The fake has no device " + device);
		}
		return queued;
	}

	/**
	 * Make a removed device present again: listed and openable (contexts opened before
	 * stay disassociated).
	 * @param device the device name
	 */
	public void restoreDevice(String device) {
		if (this.control.fake_restore_device(device) != 0) {
			throw new IllegalArgumentException("The fake has no device " + device);
		}
	}

	/**
	 * Return the number of events returned by {@code ibv_get_async_event} and not yet
	 * acknowledged.
	 * @return the unacknowledged events
	 */
	public int unackedAsyncEvents() {
		return this.control.fake_unacked_async_events();
	}

	/**
	 * Return how many times a verb was called since the last {@link #reset()}, whatever
	 * the outcome: a query verb through either entry point, or a verb that lists or opens
	 * devices.
	 * @param verb {@code ibv_query_port}, {@code ibv_query_device},
	 * {@code ibv_get_device_list} or {@code ibv_open_device}
	 * @return the calls
	 */
	public long calls(String verb) {
		long calls = this.control.fake_call_count(verb);
		if (calls < 0) {
			throw new IllegalArgumentException("The fake counts the calls of ibv_query_port, ibv_query_device, "
					+ "ibv_get_device_list and ibv_open_device, not " + verb);
		}
		return calls;
	}

	/**
	 * Make every call of a verb from now on block, as the call does on mlx5 while the
	 * firmware does not answer its command ({@code mlx5_cmd_exec} waits up to its 60 s
	 * command timeout): until {@link #release()}, after which the held calls go on
	 * normally, or until the time runs out, after which they fail with {@code ETIMEDOUT}
	 * and calls are no longer held. Destroying an object, or closing its context, while a
	 * call on it is held is recorded as misuse. {@link #reset()} releases.
	 * @param verb {@code ibv_read_counters} or {@code ibv_query_port}
	 * @param time the longest a call is held, e.g. 60 s
	 */
	public void hold(String verb, java.time.Duration time) {
		if (this.control.fake_hold(verb, (int) Math.min(Integer.MAX_VALUE, time.toMillis())) != 0) {
			throw new IllegalArgumentException("The fake holds ibv_read_counters and ibv_query_port, not " + verb);
		}
	}

	/**
	 * End the hold: the held calls go on as if the firmware answered.
	 */
	public void release() {
		this.control.fake_release();
	}

	/**
	 * Return the number of calls held now.
	 * @return the calls blocked in the fake
	 */
	public int heldNow() {
		return this.control.fake_held();
	}

	/**
	 * Return the number of calls held since the last {@link #reset()}.
	 * @return the held calls
	 */
	public long heldCalls() {
		return this.control.fake_held_calls();
	}

	/**
	 * Call the fake's empty function: the cheapest JNA call, the baseline of benchmarks.
	 * @return 0
	 */
	public int noop() {
		return this.control.fake_noop();
	}

	/**
	 * Describes a fake device; {@link #add()} adds it to the fake.
	 */
	public final class DeviceBuilder {

		private final String name;

		private long guid = 0x0c42_a103_0065_0f2cL;

		private String firmware = "22.36.1010";

		private int vendorId = 0x02c9;

		private int vendorPartId = 4125;

		private int ports = 1;

		private boolean countersSupported = true;

		private boolean flowSteering = true;

		private boolean legacyContext;

		private long contextSize;

		private boolean roceEnabled = true;

		private boolean linuxBefore58;

		private final List<int[]> portSettings = new ArrayList<>();

		private DeviceBuilder(String name) {
			this.name = name;
		}

		/**
		 * Set the node GUID.
		 * @param guid the GUID in host order
		 * @return this builder
		 */
		public DeviceBuilder guid(long guid) {
			this.guid = guid;
			return this;
		}

		/**
		 * Set the firmware version.
		 * @param firmware e.g. {@code 22.36.1010}
		 * @return this builder
		 */
		public DeviceBuilder firmware(String firmware) {
			this.firmware = firmware;
			return this;
		}

		/**
		 * Set the vendor and part ids.
		 * @param vendorId the vendor id
		 * @param vendorPartId the part id
		 * @return this builder
		 */
		public DeviceBuilder vendor(int vendorId, int vendorPartId) {
			this.vendorId = vendorId;
			this.vendorPartId = vendorPartId;
			return this;
		}

		/**
		 * Set the number of ports (each starts ACTIVE, LinkUp, Ethernet, MTU 1024, 4X 50
		 * Gb/s).
		 * @param ports 1 to 8
		 * @return this builder
		 */
		public DeviceBuilder ports(int ports) {
			this.ports = ports;
			return this;
		}

		/**
		 * Set a port's logical state.
		 * @param port the port
		 * @param state the state
		 * @return this builder
		 */
		public DeviceBuilder portState(int port, PortState state) {
			this.portSettings.add(new int[] { port, state.nativeValue(), -1, -1, -1, -1, -1 });
			return this;
		}

		/**
		 * Set a port's physical state (5 is LinkUp, 3 Disabled).
		 * @param port the port
		 * @param physicalState the raw physical state
		 * @return this builder
		 */
		public DeviceBuilder physicalState(int port, int physicalState) {
			this.portSettings.add(new int[] { port, -1, physicalState, -1, -1, -1, -1 });
			return this;
		}

		/**
		 * Set a port's link layer.
		 * @param port the port
		 * @param linkLayer the link layer
		 * @return this builder
		 */
		public DeviceBuilder linkLayer(int port, LinkLayer linkLayer) {
			this.portSettings.add(new int[] { port, -1, -1, linkLayer.nativeValue(), -1, -1, -1 });
			return this;
		}

		/**
		 * Set a port's active MTU.
		 * @param port the port
		 * @param bytes 256, 512, 1024, 2048 or 4096
		 * @return this builder
		 */
		public DeviceBuilder activeMtu(int port, int bytes) {
			int code = Integer.numberOfTrailingZeros(bytes) - 7;
			if (Integer.bitCount(bytes) != 1 || code < 1 || code > 5) {
				throw new IllegalArgumentException("MTU must be 256 to 4096 and a power of 2, but was " + bytes);
			}
			this.portSettings.add(new int[] { port, -1, -1, -1, code, -1, -1 });
			return this;
		}

		/**
		 * Set a port's raw speed and width codes ({@code active_speed},
		 * {@code active_width}).
		 * @param port the port
		 * @param speed e.g. 32 (25 Gb/s per lane)
		 * @param width e.g. 2 (4X)
		 * @return this builder
		 */
		public DeviceBuilder speed(int port, int speed, int width) {
			this.portSettings.add(new int[] { port, -1, -1, -1, -1, speed, width });
			return this;
		}

		/**
		 * Set whether the device implements counters (mlx5) or has libibverbs' dummy ops.
		 * @param supported {@code true} for mlx5 behaviour
		 * @return this builder
		 */
		public DeviceBuilder countersSupported(boolean supported) {
			this.countersSupported = supported;
			return this;
		}

		/**
		 * Set whether the device reports managed flow steering.
		 * @param supported whether {@code IBV_DEVICE_MANAGED_FLOW_STEERING} is set
		 * @return this builder
		 */
		public DeviceBuilder flowSteering(boolean supported) {
			this.flowSteering = supported;
			return this;
		}

		/**
		 * Set whether contexts are legacy ones ({@code abi_compat} not extended: no ops).
		 * @param legacy {@code true} for a legacy context
		 * @return this builder
		 */
		public DeviceBuilder legacyContext(boolean legacy) {
			this.legacyContext = legacy;
			return this;
		}

		/**
		 * Set {@code struct verbs_context.sz}, e.g. 432 to hide the counters ops and the
		 * full-size {@code query_port} but keep the flow ops.
		 * @param size the size; 0 for {@code sizeof(struct verbs_context)}
		 * @return this builder
		 */
		public DeviceBuilder contextSize(long size) {
			this.contextSize = size;
			return this;
		}

		/**
		 * Set whether RoCE is enabled (the default), like devlink {@code enable_roce}.
		 * @param enabled {@code false} to let flows see UDP 4791 traffic
		 * @return this builder
		 */
		public DeviceBuilder roceEnabled(boolean enabled) {
			this.roceEnabled = enabled;
			return this;
		}

		/**
		 * Set whether the device behaves like Linux before 5.8 (a don't-trap count flow
		 * fails with {@code EINVAL}).
		 * @param before58 {@code true} for an old kernel
		 * @return this builder
		 */
		public DeviceBuilder linuxBefore58(boolean before58) {
			this.linuxBefore58 = before58;
			return this;
		}

		/**
		 * Add the device to the fake.
		 * @return the fake
		 */
		public FakeVerbs add() {
			FakeVerbs fake = FakeVerbs.this;
			int index = fake.control.fake_add_device(this.name, this.guid, this.firmware, this.vendorId,
					this.vendorPartId, this.ports, this.countersSupported ? 1 : 0, this.flowSteering ? 1 : 0,
					this.legacyContext ? 1 : 0, this.contextSize);
			if (index < 0) {
				throw new IllegalArgumentException("The fake refused device " + this.name
						+ " (at most 16 devices, 1 to 8 ports, names under 64 characters)");
			}
			for (int[] s : this.portSettings) {
				fake.setPort(this.name, s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
			}
			fake.roceEnabled(this.name, this.roceEnabled);
			fake.linuxBefore58(this.name, this.linuxBefore58);
			return fake;
		}

	}

	/**
	 * {@code struct fake_packet} of the fake.
	 */
	@FieldOrder({ "dst_mac", "src_mac", "ether_type", "vlan_id", "ip_version", "src_ip", "dst_ip", "ip_protocol",
			"src_port", "dst_port", "length", "roce_op" })
	public static class FakePacket extends Structure {

		/** Destination MAC. */
		public byte[] dst_mac = new byte[6];

		/** Source MAC. */
		public byte[] src_mac = new byte[6];

		/** Ethernet type, host order. */
		public short ether_type;

		/** VLAN id, -1 when untagged. */
		public int vlan_id = -1;

		/** 0, 4 or 6. */
		public int ip_version;

		/** Source address, network order. */
		public byte[] src_ip = new byte[16];

		/** Destination address, network order. */
		public byte[] dst_ip = new byte[16];

		/** IP protocol number. */
		public int ip_protocol;

		/** Source port, host order. */
		public int src_port;

		/** Destination port, host order. */
		public int dst_port;

		/** Frame length in bytes. */
		public int length;

		/** RoCE operation of a UDP 4791 packet: the {@link RoceOperation} ordinal. */
		public int roce_op;

		static FakePacket of(Packet packet) {
			FakePacket p = new FakePacket();
			mac(packet.destinationMac(), p.dst_mac);
			mac(packet.sourceMac(), p.src_mac);
			p.ether_type = (short) packet.etherType();
			Integer vlan = packet.vlanId();
			p.vlan_id = (vlan != null) ? vlan : -1;
			InetAddress source = packet.sourceIp();
			InetAddress destination = packet.destinationIp();
			if (source != null && destination != null) {
				p.ip_version = (source instanceof Inet4Address) ? 4 : 6;
				byte[] s = source.getAddress();
				byte[] d = destination.getAddress();
				System.arraycopy(s, 0, p.src_ip, 0, s.length);
				System.arraycopy(d, 0, p.dst_ip, 0, d.length);
			}
			p.ip_protocol = packet.ipProtocol();
			p.src_port = packet.sourcePort();
			p.dst_port = packet.destinationPort();
			p.length = packet.length();
			return p;
		}

		private static void mac(@Nullable MacAddress mac, byte[] target) {
			if (mac != null) {
				System.arraycopy(mac.octets(), 0, target, 0, 6);
			}
		}

	}

	/**
	 * The control API the fake exports.
	 */
	interface Control extends Library {

		void fake_reset();

		void fake_set_restrack(com.sun.jna.@Nullable Pointer tracker);

		int fake_add_device(String name, long guid, String fw, int vendorId, int vendorPartId, int ports,
				int countersSupported, int flowSteering, int legacy, long contextSize);

		int fake_set_port(String device, int port, int state, int physState, int linkLayer, int activeMtu,
				int activeSpeed, int activeWidth);

		void fake_no_kernel_stack(int on);

		void fake_short_reads(int on);

		int fake_fail(String verb, int errno, int always);

		void fake_clear_faults();

		int fake_deliver(String device, int port, FakePacket packet);

		int fake_set_roce(String device, int enabled);

		int fake_set_linux_before_5_8(String device, int on);

		long fake_port_counter(String device, int port, String file);

		int fake_live_objects();

		void fake_live_description(byte[] buffer, int length);

		int fake_flow_describe(int index, byte[] buffer, int length);

		int fake_misuse_count();

		void fake_misuse_entry(int index, byte[] buffer, int length);

		int fake_noop();

		long fake_call_count(String verb);

		int fake_hold(String verb, int ms);

		void fake_release();

		int fake_held();

		long fake_held_calls();

		int fake_raise_async_event(String device, int type, int port);

		int fake_remove_device(String device);

		int fake_restore_device(String device);

		int fake_unacked_async_events();

	}

}
