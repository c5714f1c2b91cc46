package io.github.rdmacounters.verbs;

import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;

/**
 * {@code struct ibv_port_attr} of rdma-core 50 and later, which ends with
 * {@code active_speed_ex} (56 bytes on x86_64). The {@code query_port} op is given this
 * size: a library with a shorter struct zeroes the whole buffer and fills what its struct
 * holds ({@code __lib_query_port} in {@code libibverbs/verbs.c}), so
 * {@code active_speed_ex} then reads 0. The exported compat {@code ibv_query_port} fills
 * the fields up to {@code flags}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@FieldOrder({ "state", "max_mtu", "active_mtu", "gid_tbl_len", "port_cap_flags", "max_msg_sz", "bad_pkey_cntr",
		"qkey_viol_cntr", "pkey_tbl_len", "lid", "sm_lid", "lmc", "max_vl_num", "sm_sl", "subnet_timeout",
		"init_type_reply", "active_width", "active_speed", "phys_state", "link_layer", "flags", "port_cap_flags2",
		"active_speed_ex" })
public class IbvPortAttr extends Structure {

	/** {@code enum ibv_port_state state}. */
	public int state;

	/** {@code enum ibv_mtu max_mtu}. */
	public int max_mtu;

	/** {@code enum ibv_mtu active_mtu}: 1 is 256 bytes, 5 is 4096. */
	public int active_mtu;

	/** {@code int gid_tbl_len}. */
	public int gid_tbl_len;

	/** {@code uint32_t port_cap_flags}. */
	public int port_cap_flags;

	/** {@code uint32_t max_msg_sz}. */
	public int max_msg_sz;

	/** {@code uint32_t bad_pkey_cntr}. */
	public int bad_pkey_cntr;

	/** {@code uint32_t qkey_viol_cntr}. */
	public int qkey_viol_cntr;

	/** {@code uint16_t pkey_tbl_len}. */
	public short pkey_tbl_len;

	/** {@code uint16_t lid}. */
	public short lid;

	/** {@code uint16_t sm_lid}. */
	public short sm_lid;

	/** {@code uint8_t lmc}. */
	public byte lmc;

	/** {@code uint8_t max_vl_num}. */
	public byte max_vl_num;

	/** {@code uint8_t sm_sl}. */
	public byte sm_sl;

	/** {@code uint8_t subnet_timeout}. */
	public byte subnet_timeout;

	/** {@code uint8_t init_type_reply}. */
	public byte init_type_reply;

	/** {@code uint8_t active_width}. */
	public byte active_width;

	/** {@code uint8_t active_speed}. */
	public byte active_speed;

	/** {@code uint8_t phys_state}. */
	public byte phys_state;

	/** {@code uint8_t link_layer}. */
	public byte link_layer;

	/** {@code uint8_t flags}. */
	public byte flags;

	/** {@code uint16_t port_cap_flags2}. */
	public short port_cap_flags2;

	/**
	 * {@code uint32_t active_speed_ex} (rdma-core 50 and later): the speed code, also
	 * those beyond a byte (XDR is 256); 0 where the library or kernel does not report it.
	 */
	public int active_speed_ex;

	/**
	 * Return the active speed code the way {@code ibv_devinfo} reads it
	 * ({@code libibverbs/examples/devinfo.c}): {@code active_speed_ex} if set, else
	 * {@code active_speed}.
	 * @return the speed code, e.g. 64 (HDR) or 256 (XDR)
	 */
	int speed() {
		return (this.active_speed_ex != 0) ? this.active_speed_ex : (this.active_speed & 0xFF);
	}

	/**
	 * Describe the attributes the binding reads, without the structure's address.
	 * @return e.g. {@code ibv_port_attr[state=4, ...]}
	 */
	@Override
	public String toString() {
		return "ibv_port_attr[state=" + this.state + ", phys_state=" + (this.phys_state & 0xFF) + ", link_layer="
				+ (this.link_layer & 0xFF) + ", active_mtu=" + this.active_mtu + ", active_speed="
				+ (this.active_speed & 0xFF) + ", active_speed_ex=" + Integer.toUnsignedString(this.active_speed_ex)
				+ ", active_width=" + (this.active_width & 0xFF) + "]";
	}

	static int offsetOf(String field) {
		return new IbvPortAttr().fieldOffset(field);
	}

	static int sizeOf() {
		return new IbvPortAttr().size();
	}

}
