package io.github.rdmacounters.verbs;

import java.nio.charset.StandardCharsets;

import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;

/**
 * {@code struct ibv_device_attr}, filled by {@code ibv_query_device}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@FieldOrder({ "fw_ver", "node_guid", "sys_image_guid", "max_mr_size", "page_size_cap", "vendor_id", "vendor_part_id",
		"hw_ver", "max_qp", "max_qp_wr", "device_cap_flags", "max_sge", "max_sge_rd", "max_cq", "max_cqe", "max_mr",
		"max_pd", "max_qp_rd_atom", "max_ee_rd_atom", "max_res_rd_atom", "max_qp_init_rd_atom", "max_ee_init_rd_atom",
		"atomic_cap", "max_ee", "max_rdd", "max_mw", "max_raw_ipv6_qp", "max_raw_ethy_qp", "max_mcast_grp",
		"max_mcast_qp_attach", "max_total_mcast_qp_attach", "max_ah", "max_fmr", "max_map_per_fmr", "max_srq",
		"max_srq_wr", "max_srq_sge", "max_pkeys", "local_ca_ack_delay", "phys_port_cnt" })
public class IbvDeviceAttr extends Structure {

	/** {@code char fw_ver[64]}. */
	public byte[] fw_ver = new byte[64];

	/** {@code __be64 node_guid}. */
	public long node_guid;

	/** {@code __be64 sys_image_guid}. */
	public long sys_image_guid;

	/** {@code uint64_t max_mr_size}. */
	public long max_mr_size;

	/** {@code uint64_t page_size_cap}. */
	public long page_size_cap;

	/** {@code uint32_t vendor_id}. */
	public int vendor_id;

	/** {@code uint32_t vendor_part_id}. */
	public int vendor_part_id;

	/** {@code uint32_t hw_ver}. */
	public int hw_ver;

	/** {@code int max_qp}. */
	public int max_qp;

	/** {@code int max_qp_wr}. */
	public int max_qp_wr;

	/** {@code unsigned int device_cap_flags}. */
	public int device_cap_flags;

	/** {@code int max_sge}. */
	public int max_sge;

	/** {@code int max_sge_rd}. */
	public int max_sge_rd;

	/** {@code int max_cq}. */
	public int max_cq;

	/** {@code int max_cqe}. */
	public int max_cqe;

	/** {@code int max_mr}. */
	public int max_mr;

	/** {@code int max_pd}. */
	public int max_pd;

	/** {@code int max_qp_rd_atom}. */
	public int max_qp_rd_atom;

	/** {@code int max_ee_rd_atom}. */
	public int max_ee_rd_atom;

	/** {@code int max_res_rd_atom}. */
	public int max_res_rd_atom;

	/** {@code int max_qp_init_rd_atom}. */
	public int max_qp_init_rd_atom;

	/** {@code int max_ee_init_rd_atom}. */
	public int max_ee_init_rd_atom;

	/** {@code enum ibv_atomic_cap atomic_cap}. */
	public int atomic_cap;

	/** {@code int max_ee}. */
	public int max_ee;

	/** {@code int max_rdd}. */
	public int max_rdd;

	/** {@code int max_mw}. */
	public int max_mw;

	/** {@code int max_raw_ipv6_qp}. */
	public int max_raw_ipv6_qp;

	/** {@code int max_raw_ethy_qp}. */
	public int max_raw_ethy_qp;

	/** {@code int max_mcast_grp}. */
	public int max_mcast_grp;

	/** {@code int max_mcast_qp_attach}. */
	public int max_mcast_qp_attach;

	/** {@code int max_total_mcast_qp_attach}. */
	public int max_total_mcast_qp_attach;

	/** {@code int max_ah}. */
	public int max_ah;

	/** {@code int max_fmr}. */
	public int max_fmr;

	/** {@code int max_map_per_fmr}. */
	public int max_map_per_fmr;

	/** {@code int max_srq}. */
	public int max_srq;

	/** {@code int max_srq_wr}. */
	public int max_srq_wr;

	/** {@code int max_srq_sge}. */
	public int max_srq_sge;

	/** {@code uint16_t max_pkeys}. */
	public short max_pkeys;

	/** {@code uint8_t local_ca_ack_delay}. */
	public byte local_ca_ack_delay;

	/** {@code uint8_t phys_port_cnt}. */
	public byte phys_port_cnt;

	/**
	 * Return the firmware version string.
	 * @return the text up to the first NUL
	 */
	String firmwareVersion() {
		int length = 0;
		while (length < this.fw_ver.length && this.fw_ver[length] != 0) {
			length++;
		}
		return new String(this.fw_ver, 0, length, StandardCharsets.US_ASCII);
	}

	/**
	 * Describe the attributes the binding reads, without the structure's address.
	 * @return e.g. {@code ibv_device_attr[fw_ver=22.36.1010, ...]}
	 */
	@Override
	public String toString() {
		return "ibv_device_attr[fw_ver=" + firmwareVersion() + ", vendor_id=" + this.vendor_id + ", vendor_part_id="
				+ this.vendor_part_id + ", device_cap_flags=" + Integer.toUnsignedString(this.device_cap_flags)
				+ ", phys_port_cnt=" + (this.phys_port_cnt & 0xFF) + "]";
	}

	static int offsetOf(String field) {
		return new IbvDeviceAttr().fieldOffset(field);
	}

	static int sizeOf() {
		return new IbvDeviceAttr().size();
	}

}
