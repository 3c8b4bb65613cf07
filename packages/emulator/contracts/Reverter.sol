// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// Calls that fail the standard ways: a require with a reason (Error(string)), a Panic(uint256)
/// from checked arithmetic, and a custom error.
contract Reverter {
    error Unauthorized(address caller);

    /// Reverts with Error("Reverter: always reverts").
    function alwaysReverts() external pure returns (uint256) {
        require(false, "Reverter: always reverts");
        return 0;
    }

    /// a / b: Panic(0x12) when b is 0.
    function divide(uint256 a, uint256 b) external pure returns (uint256) {
        return a / b;
    }

    /// Reverts with the custom error Unauthorized(msg.sender).
    function onlyNobody() external view returns (uint256) {
        revert Unauthorized(msg.sender);
    }
}
